import Foundation
import os.log

/// Receives the text that leaves the device. The keyboard calls it with the
/// privatized text only, never with what was typed, on its background
/// queue; an implementation may block. A thrown error is shown to the user
/// as a failed send, and nothing is inserted.
protocol UploadHook {
    func upload(privatizedText: String) throws
}

/// The default hook: logs what would be uploaded and makes no network call.
///
/// To post to your server, set `postEnabled` to true and `endpoint` to your
/// URL. A keyboard extension has network access only when the user allows
/// Full Access (RequestsOpenAccess is already set in the keyboard's Info.plist).
struct PlaceholderUploadHook: UploadHook {
    /// Placeholder endpoint; change it in code.
    var endpoint = URL(string: "https://example.invalid/wordveil/upload")!
    /// Off by default: no network call is made.
    var postEnabled = false

    private static let log = OSLog(subsystem: "io.github.wordveil.sample", category: "upload")

    struct UploadFailed: LocalizedError {
        let detail: String
        var errorDescription: String? { "Upload failed: \(detail)" }
    }

    func upload(privatizedText: String) throws {
        os_log("would upload %d chars to %{public}@: %@", log: Self.log, type: .info,
               privatizedText.count, endpoint.absoluteString, privatizedText)
        guard postEnabled else { return }

        var request = URLRequest(url: endpoint, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(privatizedText.utf8)

        // Called on a background queue: wait for the answer.
        final class Outcome { var error: Error? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, response, error in
            if let error = error {
                outcome.error = error
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                outcome.error = UploadFailed(detail: "HTTP \(http.statusCode)")
            }
            done.signal()
        }.resume()
        done.wait()
        if let error = outcome.error {
            throw error
        }
    }
}
