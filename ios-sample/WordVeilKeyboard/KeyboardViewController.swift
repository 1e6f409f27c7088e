import UIKit
// The gomobile framework's module is named after the -o file:
// scripts/mobile-bind.sh writes build/WordVeil.xcframework (module WordVeil);
// the fallback covers a build with -o Wordveil.xcframework.
#if canImport(WordVeil)
import WordVeil
#else
import Wordveil
#endif

/// A minimal keyboard that never hands the host app what the user typed:
/// letters accumulate in the keyboard's own buffer (shown in a preview
/// strip), and "Send privately" privatizes the buffer with WordVeil, passes
/// the privatized text to the `UploadHook`, and inserts the privatized
/// text into the document.
///
/// Threading: the SDK is called only on `worker`, a serial background
/// queue. The privatizer is created once on it (loading the embedded word
/// asset takes ~20 ms), and every privatization runs there; UI updates and
/// `textDocumentProxy` calls happen on the main queue.
final class KeyboardViewController: UIInputViewController {

    /// Replace to send the privatized text somewhere real.
    var uploadHook: UploadHook = PlaceholderUploadHook()

    private let worker = DispatchQueue(label: "io.github.wordveil.keyboard", qos: .userInitiated)
    /// Holds the privatizer; touched on `worker` only.
    private let engine = Engine()

    private final class Engine {
        var privatizer: MobilePrivatizer?
    }

    deinit {
        // Close the privatizer on `worker`, after any work still queued: it
        // releases the memo file, the ledger and the Go-side memory now,
        // not when the Objective-C proxy is finally released. Any later call
        // would get WV_CLOSED.
        let engine = self.engine
        worker.async {
            try? engine.privatizer?.close()
            engine.privatizer = nil
        }
    }

    /// What has been typed since the last send; main queue only.
    private var buffer = ""
    private var sending = false
    private var ready = false

    private let preview = UILabel()
    private let status = UILabel()
    private let sendKey = UIButton(type: .system)
    private var nextKeyboardKey: UIButton?
    private var statusWorkItem: DispatchWorkItem?

    override func viewDidLoad() {
        super.viewDidLoad()
        buildKeyboard()
        updatePreview()
        updateSendKey()

        let fullAccess = hasFullAccess
        let engine = self.engine
        worker.async { [weak self] in
            // The Go runtime's soft limit for this extension (~30 MB).
            _ = MobileSetMemoryLimit(WordVeilSetup.keyboardMemoryLimit)
            let outcome: Result<MobilePrivatizer, Error>
            do {
                if !fullAccess {
                    // Without Full Access the App Group container, where the
                    // ledger lives, cannot be written: fail closed.
                    throw NoFullAccess()
                }
                outcome = .success(try WordVeilSetup.makePrivatizer(try WordVeilSetup.keyboardConfig()))
            } catch {
                outcome = .failure(error)
            }
            if case .success(let p) = outcome {
                engine.privatizer = p
            }
            DispatchQueue.main.async {
                guard let self = self else { return }
                switch outcome {
                case .success:
                    self.ready = true
                case .failure(let error):
                    self.showStatus("WordVeil unavailable: " + WordVeilSetup.userMessage(error), seconds: 8)
                }
                self.updateSendKey()
            }
        }
    }

    private struct NoFullAccess: LocalizedError {
        var errorDescription: String? {
            "allow Full Access in Settings › General › Keyboard › Keyboards › WordVeil Private"
        }
    }

    override func didReceiveMemoryWarning() {
        super.didReceiveMemoryWarning()
        // Return the Go heap's free pages to the OS at once (this is not a
        // call that can wait behind a privatization on `worker`).
        MobileFreeOSMemory()
    }

    override func viewWillLayoutSubviews() {
        nextKeyboardKey?.isHidden = !needsInputModeSwitchKey
        super.viewWillLayoutSubviews()
    }

    // MARK: - Keys

    @objc private func letterTapped(_ sender: UIButton) {
        guard let letter = sender.title(for: .normal) else { return }
        buffer += letter
        updatePreview()
    }

    @objc private func spaceTapped() {
        buffer += " "
        updatePreview()
    }

    @objc private func backspaceTapped() {
        if buffer.isEmpty {
            // Nothing of ours left to delete: delete in the document.
            textDocumentProxy.deleteBackward()
        } else {
            buffer.removeLast()
            updatePreview()
        }
    }

    @objc private func sendTapped() {
        guard ready, !sending else { return }
        let typed = buffer
        guard !typed.trimmingCharacters(in: .whitespaces).isEmpty else {
            showStatus("Nothing to send", seconds: 2)
            return
        }
        sending = true
        updateSendKey()
        showStatus("Privatizing…", seconds: 0)
        let hook = uploadHook
        let engine = self.engine
        worker.async { [weak self] in
            let outcome: Result<String, Error>
            do {
                guard let p = engine.privatizer else { throw WordVeilSetup.SetupError.noPrivatizer }
                let result = try p.privatize(typed)
                NSLog("WordVeil: %lld words, %lld OOV, metric loss %.1f, lifetime remaining %.1f",
                      result.words, result.oov, result.unitFree, result.lifetimeRemaining)
                // Only the privatized text is handed on, never `typed`.
                try hook.upload(privatizedText: result.text)
                outcome = .success(result.text)
            } catch {
                outcome = .failure(error)
            }
            DispatchQueue.main.async { self?.finishSend(typed: typed, outcome: outcome) }
        }
    }

    private func finishSend(typed: String, outcome: Result<String, Error>) {
        sending = false
        updateSendKey()
        switch outcome {
        case .success(let privatized):
            textDocumentProxy.insertText(privatized)
            // Keep anything typed while the send was running.
            if buffer.hasPrefix(typed) {
                buffer.removeFirst(typed.count)
            } else {
                buffer = ""
            }
            updatePreview()
            showStatus("Sent privately", seconds: 1.5)
        case .failure(let error):
            // The buffer is kept so the user can retry or edit.
            showStatus(WordVeilSetup.userMessage(error), seconds: 3)
        }
    }

    // MARK: - UI

    private func buildKeyboard() {
        guard let root = inputView else { return }
        root.allowsSelfSizing = true

        preview.font = .systemFont(ofSize: 16)
        preview.numberOfLines = 1
        preview.lineBreakMode = .byTruncatingHead
        status.font = .systemFont(ofSize: 12)
        status.textColor = .secondaryLabel
        status.isHidden = true

        var rows: [UIView] = [preview, status]
        for letters in ["qwertyuiop", "asdfghjkl", "zxcvbnm"] {
            rows.append(row(letters.map { key(String($0), action: #selector(letterTapped(_:))) }))
        }

        var bottom: [UIButton] = []
        let globe = key("🌐", action: nil)
        globe.widthAnchor.constraint(equalToConstant: 44).isActive = true
        globe.addTarget(self, action: #selector(handleInputModeList(from:with:)), for: .allTouchEvents)
        nextKeyboardKey = globe
        bottom.append(globe)
        let backspace = key("⌫", action: #selector(backspaceTapped))
        backspace.widthAnchor.constraint(equalToConstant: 52).isActive = true
        bottom.append(backspace)
        let space = key("space", action: #selector(spaceTapped))
        // The space bar takes whatever width is left.
        space.setContentHuggingPriority(.defaultLow - 1, for: .horizontal)
        space.setContentCompressionResistancePriority(.defaultLow - 1, for: .horizontal)
        bottom.append(space)
        sendKey.setTitle("Send privately", for: .normal)
        sendKey.titleLabel?.font = .boldSystemFont(ofSize: 15)
        style(sendKey)
        sendKey.addTarget(self, action: #selector(sendTapped), for: .touchUpInside)
        bottom.append(sendKey)
        let bottomRow = UIStackView(arrangedSubviews: bottom)
        bottomRow.spacing = 4
        bottomRow.distribution = .fill
        sendKey.widthAnchor.constraint(equalTo: bottomRow.widthAnchor, multiplier: 0.35).isActive = true
        rows.append(bottomRow)

        let stack = UIStackView(arrangedSubviews: rows)
        stack.axis = .vertical
        stack.spacing = 6
        stack.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 4),
            stack.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -4),
            stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 6),
            stack.bottomAnchor.constraint(equalTo: root.bottomAnchor, constant: -6),
        ])
        for r in rows.dropFirst(2) {
            r.heightAnchor.constraint(equalToConstant: 42).isActive = true
        }
    }

    private func row(_ keys: [UIButton]) -> UIStackView {
        let r = UIStackView(arrangedSubviews: keys)
        r.spacing = 4
        r.distribution = .fillEqually
        return r
    }

    private func key(_ title: String, action: Selector?) -> UIButton {
        let b = UIButton(type: .system)
        b.setTitle(title, for: .normal)
        b.titleLabel?.font = .systemFont(ofSize: title.count > 1 ? 15 : 20)
        style(b)
        if let action = action {
            b.addTarget(self, action: action, for: .touchUpInside)
        }
        return b
    }

    private func style(_ b: UIButton) {
        b.backgroundColor = .secondarySystemBackground
        b.setTitleColor(.label, for: .normal)
        b.setTitleColor(.tertiaryLabel, for: .disabled)
        b.layer.cornerRadius = 5
    }

    private func updatePreview() {
        preview.text = buffer.isEmpty ? "Type, then “Send privately”: only the privatized text reaches the app" : buffer
        preview.textColor = buffer.isEmpty ? .placeholderText : .label
    }

    private func updateSendKey() {
        sendKey.isEnabled = ready && !sending
    }

    /// Shows `message` in the status line; for `seconds` > 0, hides it after that long.
    private func showStatus(_ message: String, seconds: Double) {
        statusWorkItem?.cancel()
        status.text = message
        status.isHidden = false
        guard seconds > 0 else { return }
        let hide = DispatchWorkItem { [weak self] in self?.status.isHidden = true }
        statusWorkItem = hide
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds, execute: hide)
    }
}
