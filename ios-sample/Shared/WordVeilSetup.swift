import Foundation
// The gomobile framework's module is named after the -o file:
// scripts/mobile-bind.sh writes build/WordVeil.xcframework (module WordVeil);
// the fallback covers a build with -o Wordveil.xcframework.
#if canImport(WordVeil)
import WordVeil
#else
import Wordveil
#endif

/// One place for how this sample configures WordVeil, shared by the host
/// app and the keyboard extension (the file is in both targets).
///
/// Every call into the SDK goes through the gomobile-generated
/// Objective-C API of the Go package `mobile` (header Mobile.objc.h in
/// WordVeil.xcframework): package functions are C functions with the
/// prefix `Mobile` (`MobileNewConfig()`, `MobileOpenPrivatizer(_:_:)`,
/// `MobileErrCode(_:)`, ...), the Go structs are the classes
/// `MobileConfig`, `MobilePrivatizer`, `MobileResult` and
/// `MobileDeniability`. Go errors arrive as `NSError` (domain "go") whose
/// `localizedDescription` is the Go error text, starting with a stable code
/// such as "WV_BUDGET_EXCEEDED".
enum WordVeilSetup {
    /// The App Group shared by the app and the keyboard extension. Change it
    /// together with both .entitlements files (or project.yml) to a group
    /// your team owns.
    static let appGroup = "group.io.github.wordveil.sample"

    /// Mechanisms offered by the demo ("tem" has no preset and is left out).
    static let mechanisms = ["brr", "tem-hamming", "1dg", "1dt"]
    /// Privacy levels (docs/PRIVACY_LEVELS.md): the chance that a word
    /// survives unchanged is ≈ 0.10 / 0.30 / 0.60.
    static let presets = ["strong", "balanced", "light"]

    static let keyboardMechanism = "brr"
    static let keyboardPreset = "balanced"

    /// Soft memory limit for the Go runtime inside the keyboard extension
    /// (iOS kills keyboard extensions that use much more than ~48 MB).
    static let keyboardMemoryLimit: Int64 = 30 << 20

    /// Budget caps in WordVeil's metric loss (ε·P_avg per word). With BRR
    /// "balanced" a word costs about 62: roughly 800 words a day and 80,000
    /// words in all. 1dg/1dt cost far more per word in this unit, which is
    /// why the keyboard uses BRR.
    static let capPerDay = 50_000.0
    static let capLifetime = 5_000_000.0
    static let periodSeconds: Int64 = 86_400

    /// Permanent responses in the keyboard: a word typed again gets its
    /// first response, so its loss is paid once (docs/TEXT_PRIVACY.md has
    /// the trade-off). The memo file is sealed with a secret kept in the
    /// Keychain (MemoSecretStore). Set to false to disable.
    static let keyboardUsesMemo = true

    enum SetupError: LocalizedError {
        case noAppGroup
        case noPrivatizer
        case noConfig

        var errorDescription: String? {
            switch self {
            case .noAppGroup:
                return "The App Group container \(WordVeilSetup.appGroup) is not available. "
                    + "Add the App Group capability to both targets; for the keyboard, also allow Full Access."
            case .noPrivatizer:
                return "WordVeil returned no privatizer"
            case .noConfig:
                return "WordVeil returned no configuration"
            }
        }
    }

    /// A directory in the App Group container, shared by the app and the
    /// keyboard. The ledger is safe to share between processes (flock).
    static func sharedDirectory(_ name: String) throws -> String {
        guard let base = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
            throw SetupError.noAppGroup
        }
        return base.appendingPathComponent("WordVeil", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true).path
    }

    /// The keyboard's configuration: ledger (and memo) in the App Group
    /// container. Throws when the container is unavailable: the keyboard
    /// then refuses to send rather than run without its budget.
    static func keyboardConfig() throws -> MobileConfig {
        let cfg = try newConfig()
        cfg.mechanism = keyboardMechanism
        cfg.preset = keyboardPreset
        cfg.oov = "placeholder" // names, numbers and addresses become "•"
        cfg.ledgerDir = try sharedDirectory("keyboard-ledger")
        cfg.capPerPeriod = capPerDay
        cfg.periodSeconds = periodSeconds
        cfg.capLifetime = capLifetime
        // Rollback anchors in the Keychain, apart from the ledger and memo
        // directories: a rolled-back ledger or memo then fails closed.
        cfg.anchor = AnchorStore()
        if keyboardUsesMemo {
            // The memo file is sealed with a 32-byte secret from the Keychain
            // (MemoSecretStore); if it cannot be had, this throws and the
            // keyboard does not start.
            let memoDir = try sharedDirectory("keyboard-memo")
            cfg.memoDir = memoDir
            cfg.memoSecret = try MemoSecretStore.load(memoDirectory: memoDir)
        }
        return cfg
    }

    /// The demo's configuration. Nothing the demo produces leaves the device,
    /// so its ledger is the app's own (Application Support), apart from the
    /// keyboard's budget.
    static func demoConfig(mechanism: String, preset: String) throws -> MobileConfig {
        let cfg = try newConfig()
        cfg.mechanism = mechanism
        cfg.preset = preset
        cfg.oov = "random-word"
        let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
                                                   appropriateFor: nil, create: true)
        cfg.ledgerDir = support.appendingPathComponent("WordVeil/demo-ledger", isDirectory: true).path
        cfg.capPerPeriod = capPerDay * 100
        cfg.periodSeconds = periodSeconds
        cfg.capLifetime = capLifetime * 100
        return cfg
    }

    private static func newConfig() throws -> MobileConfig {
        guard let cfg = MobileNewConfig() else { throw SetupError.noConfig }
        return cfg
    }

    /// MobileOpenPrivatizer reports its error through an NSError pointer (a C
    /// function is not imported as `throws`); this turns it into a throw.
    static func makePrivatizer(_ cfg: MobileConfig) throws -> MobilePrivatizer {
        var error: NSError?
        let privatizer = MobileOpenPrivatizer(cfg, &error)
        if let error = error {
            throw error
        }
        guard let p = privatizer else { throw SetupError.noPrivatizer }
        return p
    }

    /// A short message for a user, from an error thrown by the SDK.
    static func userMessage(_ error: Error) -> String {
        let message = (error as NSError).localizedDescription
        switch MobileErrCode(message) {
        case "WV_BUDGET_EXCEEDED": return "Privacy budget used up: nothing was sent"
        case "WV_EMPTY_TEXT": return "Nothing to send"
        case "WV_TEXT_TOO_LARGE": return "Text too long"
        case "WV_CORRUPT_STATE": return "Privacy ledger is damaged: sending is blocked"
        case "WV_IO": return "Storage error: nothing was sent"
        case "WV_INVALID_ARGUMENT": return "Invalid setting: " + message
        case "WV_CORRUPT_ASSET": return "Word list is damaged"
        case "WV_INTERNAL": return "Internal error: nothing was sent"
        default: return message
        }
    }

    /// The SDK reports −1 for "no cap".
    static func formatRemaining(_ remaining: Double) -> String {
        remaining < 0 ? "no cap" : String(format: "%.1f", remaining)
    }
}
