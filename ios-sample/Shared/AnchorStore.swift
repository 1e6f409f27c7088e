import Foundation
import Security
#if canImport(WordVeil)
import WordVeil
#else
import Wordveil
#endif

/// The memo's and the ledger's rollback anchors (`MobileConfig.anchor`; see
/// docs/STATE_FILES.md): the latest record count and chain head of each
/// state file, kept apart from the memo and ledger directories. A memo or
/// ledger rolled back (records cut off, an older copy of the app group's
/// files put back) then fails with `WV_CORRUPT_STATE` instead of answering
/// words afresh or handing budget back.
///
/// How it is stored: one generic-password Keychain item per name (service
/// `service`, account = the SDK's name: "ledger-", "memo-" or "path-" and 32 hex
/// digits), accessible `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`
/// and not synchronized, in the keyboard extension's default access group
/// beside the memo secret (MemoSecretStore). The values are a count and a
/// MAC or hash (under 64 bytes) and reveal nothing about what was typed.
///
/// What it does not resist: ThisDeviceOnly items never move to another
/// device, but an encrypted backup restored to the same device brings back
/// the files and the items together — an older but consistent state, which
/// no anchor can tell from the real one.
final class AnchorStore: NSObject, MobileStateAnchorProtocol {
    static let service = "io.github.wordveil.sample.anchor"

    enum StoreError: LocalizedError {
        case keychain(OSStatus)
        var errorDescription: String? {
            switch self {
            case .keychain(let status): return "Keychain error \(status) for a rollback anchor"
            }
        }
    }

    private func query(_ name: String?) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: AnchorStore.service,
            kSecAttrAccount as String: name ?? "",
        ]
    }

    /// The value last stored under name; empty if none (the SDK reads empty
    /// as "nothing stored").
    func load(_ name: String?) throws -> Data {
        var q = query(name)
        q[kSecReturnData as String] = true
        q[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(q as CFDictionary, &item)
        switch status {
        case errSecSuccess:
            return (item as? Data) ?? Data()
        case errSecItemNotFound:
            return Data()
        default:
            throw StoreError.keychain(status)
        }
    }

    func store(_ name: String?, state: Data?) throws {
        let value = state ?? Data()
        let update = [kSecValueData as String: value]
        var status = SecItemUpdate(query(name) as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            var add = query(name)
            add[kSecValueData as String] = value
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            add[kSecAttrSynchronizable as String] = kCFBooleanFalse
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw StoreError.keychain(status) }
    }
}
