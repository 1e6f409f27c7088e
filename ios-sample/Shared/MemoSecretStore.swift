import Foundation
import Security

/// The memo's secret (`MobileConfig.memoSecret`): 32 random bytes that seal
/// the memo file, kept in the Keychain and nowhere else.
///
/// Created once with `SecRandomCopyBytes` and stored with `SecItemAdd` as a
/// generic-password item, accessible
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` (readable by the
/// keyboard after the first unlock, never synchronized or restored to another
/// device); read back with `SecItemCopyMatching`. The item belongs to the
/// keyboard extension's default keychain access group: only the keyboard uses
/// the memo.
///
/// Fail closed: if the memo directory already has files but the Keychain item
/// is gone (for example a backup restored to a new device: the memo files
/// come back, the ThisDeviceOnly item does not), `load` throws rather than
/// making a new secret, which could not open that memo anyway. Delete the
/// memo directory to start over.
enum MemoSecretStore {
    static let service = "io.github.wordveil.sample.memo-secret"
    static let account = "keyboard-memo"
    /// `MobileConfig.memoSecret` needs at least 32 bytes.
    static let secretBytes = 32

    enum StoreError: LocalizedError {
        case keychain(OSStatus)
        case random(OSStatus)
        case wrongItem
        case secretLost

        var errorDescription: String? {
            switch self {
            case .keychain(let status):
                return "Keychain error \(status) for the memo secret"
            case .random(let status):
                return "no random bytes for the memo secret (\(status))"
            case .wrongItem:
                return "the memo secret in the Keychain has the wrong form"
            case .secretLost:
                return "the memo's secret is no longer in the Keychain: the memo cannot be opened"
            }
        }
    }

    /// Returns the memo secret, creating it on first use. `memoDirectory` is
    /// the memo's directory, checked for the fail-closed case above.
    static func load(memoDirectory: String) throws -> Data {
        if let secret = try copyMatching() {
            return secret
        }
        // A lock file holds no responses; any other file is a memo sealed
        // under the lost secret.
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: memoDirectory)) ?? [])
            .filter { !$0.hasSuffix(".lock") }
        if !existing.isEmpty {
            throw StoreError.secretLost
        }
        return try create()
    }

    private static var baseQuery: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }

    private static func copyMatching() throws -> Data? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        switch status {
        case errSecSuccess:
            guard let data = item as? Data, data.count == secretBytes else { throw StoreError.wrongItem }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw StoreError.keychain(status)
        }
    }

    private static func create() throws -> Data {
        var bytes = [UInt8](repeating: 0, count: secretBytes)
        let rc = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
        guard rc == errSecSuccess else { throw StoreError.random(rc) }
        let secret = Data(bytes)
        for i in bytes.indices { bytes[i] = 0 } // the Data above is the only copy kept
        var add = baseQuery
        add[kSecValueData as String] = secret
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        add[kSecAttrSynchronizable as String] = kCFBooleanFalse
        let status = SecItemAdd(add as CFDictionary, nil)
        switch status {
        case errSecSuccess:
            return secret
        case errSecDuplicateItem:
            // Another instance of the keyboard added it first: use that one.
            guard let stored = try copyMatching() else { throw StoreError.keychain(status) }
            return stored
        default:
            throw StoreError.keychain(status)
        }
    }
}
