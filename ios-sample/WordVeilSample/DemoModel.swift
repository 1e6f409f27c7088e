import Foundation
import UIKit
// The gomobile framework's module is named after the -o file:
// scripts/mobile-bind.sh writes build/WordVeil.xcframework (module WordVeil);
// the fallback covers a build with -o Wordveil.xcframework.
#if canImport(WordVeil)
import WordVeil
#else
import Wordveil
#endif

/// The demo screen's state. The SDK is called only on `worker`, a serial
/// background queue; published state changes on the main queue.
final class DemoModel: ObservableObject {
    @Published var input = "Meet me at the old bridge tomorrow evening, call Dr. Smith at 555-0100 first"
    @Published var mechanism = "brr"
    @Published var preset = "balanced"
    @Published private(set) var shownInput = ""
    @Published private(set) var output = ""
    @Published private(set) var report = ""
    @Published private(set) var errorMessage: String?
    @Published private(set) var busy = false
    @Published private(set) var version = ""

    private let worker = DispatchQueue(label: "io.github.wordveil.demo", qos: .userInitiated)
    /// One privatizer per (mechanism, preset); touched on `worker` only.
    private let cache = PrivatizerCache()
    private var memoryWarning: NSObjectProtocol?

    static let deniabilityWords: Int64 = 100
    static let deniabilityDraws: Int64 = 100

    init() {
        worker.async { [weak self] in
            let v = MobileVersion()
            DispatchQueue.main.async { self?.version = "WordVeil SDK \(v)" }
        }
        memoryWarning = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
        ) { _ in
            MobileFreeOSMemory()
        }
    }

    deinit {
        if let memoryWarning = memoryWarning {
            NotificationCenter.default.removeObserver(memoryWarning)
        }
        let cache = self.cache
        worker.async { cache.closeAll() }
    }

    func privatize() {
        let text = input, mech = mechanism, level = preset, cache = self.cache
        run({ () throws -> (String, String) in
            let r = try cache.privatizer(mechanism: mech, preset: level).privatize(text)
            let accounting = """
                words privatized:    \(r.words)
                out of vocabulary:   \(r.oov)
                metric loss:      \(String(format: "%.1f", r.unitFree))
                lifetime remaining:  \(WordVeilSetup.formatRemaining(r.lifetimeRemaining))
                """
            return (r.text, accounting)
        }) { (model: DemoModel, value: (String, String)) in
            model.shownInput = text
            model.output = value.0
            model.report = value.1
        }
    }

    func deniability() {
        let mech = mechanism, level = preset, cache = self.cache
        let words = Self.deniabilityWords, draws = Self.deniabilityDraws
        run({ () throws -> String in
            let d = try cache.privatizer(mechanism: mech, preset: level).deniability(words, draws: draws)
            return """
                \(mech) / \(level)
                N_w (word kept unchanged): \(String(format: "%.3f", d.meanN))
                S_w (distinct outputs in \(draws) draws): \(String(format: "%.1f", d.meanS))
                (mean over \(d.words) random vocabulary words)
                """
        }) { (model: DemoModel, value: String) in
            model.report = value
        }
    }

    /// Runs `task` on the worker, then `apply` (or shows the error) on the main queue.
    private func run<T>(_ task: @escaping () throws -> T, apply: @escaping (DemoModel, T) -> Void) {
        busy = true
        errorMessage = nil
        worker.async { [weak self] in
            let outcome = Result { try task() }
            DispatchQueue.main.async {
                guard let self = self else { return }
                self.busy = false
                switch outcome {
                case .success(let value):
                    apply(self, value)
                case .failure(let error):
                    self.errorMessage = WordVeilSetup.userMessage(error)
                    self.report = (error as NSError).localizedDescription
                }
            }
        }
    }
}

/// Privatizers by (mechanism, preset), created on first use. Used on one
/// serial queue only.
private final class PrivatizerCache {
    private var privatizers: [String: MobilePrivatizer] = [:]

    func privatizer(mechanism: String, preset: String) throws -> MobilePrivatizer {
        let key = mechanism + "/" + preset
        if let p = privatizers[key] {
            return p
        }
        let p = try WordVeilSetup.makePrivatizer(try WordVeilSetup.demoConfig(mechanism: mechanism, preset: preset))
        privatizers[key] = p
        return p
    }

    /// Closes every privatizer (their Go-side memory is released at once).
    func closeAll() {
        for p in privatizers.values {
            try? p.close()
        }
        privatizers.removeAll()
    }
}
