package io.github.wordveil.sample.keyboard

import android.inputmethodservice.InputMethodService
import android.os.Handler
import android.os.Looper
import android.util.Log
import android.view.KeyEvent
import android.view.View
import android.view.inputmethod.EditorInfo
import io.github.wordveil.sample.PlaceholderUploadHook
import io.github.wordveil.sample.UploadHook
import io.github.wordveil.sample.WordVeilSetup
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.RejectedExecutionException

/**
 * A minimal keyboard that never hands the editor, or anything else, what
 * the user typed: letters accumulate in the keyboard's own buffer, and
 * "Send privately" privatizes the buffer with WordVeil, passes the
 * privatized text to the [UploadHook], and commits the privatized text into
 * the editor.
 *
 * Threading: the SDK is called only on [worker], a single background
 * thread. The Privatizer is created once on it (loading the embedded word
 * asset takes ~20 ms), and every privatization runs there too; results come
 * back to the main thread through [main].
 *
 * The service runs in its own process (android:process=":keyboard" in the
 * manifest), so the Go runtime's memory limit set here applies to the
 * keyboard alone.
 */
class PrivateKeyboardService : InputMethodService(), KeyboardView.Listener {

    /** Replace to send the privatized text somewhere real. */
    var uploadHook: UploadHook = PlaceholderUploadHook()

    private val main = Handler(Looper.getMainLooper())
    private lateinit var worker: ExecutorService

    /** Touched on [worker] only. */
    private var privatizer: mobile.Privatizer? = null

    /** What has been typed since the last send; main thread only. */
    private val buffer = StringBuilder()
    private var keyboardView: KeyboardView? = null
    private var sending = false
    private var ready = false
    /** Incremented for each new input field, so a late result is not committed into another field. */
    private var fieldGeneration = 0
    private val clearStatus = Runnable { keyboardView?.setStatus(null) }

    override fun onCreate() {
        super.onCreate()
        worker = Executors.newSingleThreadExecutor { r -> Thread(r, "wordveil-keyboard") }
        worker.execute {
            val error = try {
                val previous = mobile.Mobile.setMemoryLimit(WordVeilSetup.KEYBOARD_MEMORY_LIMIT_BYTES)
                Log.i(TAG, "WordVeil ${mobile.Mobile.version()}; Go memory limit ${WordVeilSetup.KEYBOARD_MEMORY_LIMIT_BYTES} (was $previous)")
                privatizer = mobile.Mobile.openPrivatizer(WordVeilSetup.keyboardConfig(this))
                null
            } catch (e: Exception) {
                e
            } catch (e: LinkageError) { // libgojni.so missing for this ABI, and the like: never crash the keyboard
                e
            }
            main.post {
                ready = error == null
                if (error != null) {
                    Log.e(TAG, "cannot create the privatizer", error)
                    showStatus("WordVeil unavailable: " + WordVeilSetup.userMessage(error), 6_000)
                }
                updateSendKey()
            }
        }
    }

    override fun onCreateInputView(): View {
        val view = KeyboardView(this, this)
        keyboardView = view
        view.setPreview(buffer)
        updateSendKey()
        return view
    }

    override fun onStartInputView(info: EditorInfo?, restarting: Boolean) {
        super.onStartInputView(info, restarting)
        if (!restarting) {
            // A new field: what was typed for the previous one is dropped.
            fieldGeneration++
            buffer.setLength(0)
            keyboardView?.setPreview(buffer)
        }
    }

    override fun onLetter(letter: Char) {
        buffer.append(letter)
        keyboardView?.setPreview(buffer)
    }

    override fun onSpace() {
        buffer.append(' ')
        keyboardView?.setPreview(buffer)
    }

    override fun onBackspace() {
        if (buffer.isNotEmpty()) {
            buffer.setLength(buffer.length - 1)
            keyboardView?.setPreview(buffer)
        } else {
            // Nothing of ours left to delete: delete in the editor.
            sendDownUpKeyEvents(KeyEvent.KEYCODE_DEL)
        }
    }

    override fun onSendPrivately() {
        if (sending || !ready) return
        val typed = buffer.toString()
        if (typed.isBlank()) {
            showStatus("Nothing to send", 2_000)
            return
        }
        sending = true
        updateSendKey()
        showStatus("Privatizing…", 0)
        val generation = fieldGeneration
        val hook = uploadHook
        onWorker {
            val outcome: Result<String> = try {
                val p = privatizer ?: throw IllegalStateException("privatizer not ready")
                val result = p.privatize(typed)
                val privatized = result.getText()
                Log.i(TAG, "privatized ${result.getWords()} words, ${result.getOOV()} OOV, metric loss " +
                    "${result.getUnitFree()}, lifetime remaining ${result.getLifetimeRemaining()}")
                // Only the privatized text is handed on, never `typed`.
                hook.upload(privatized)
                Result.success(privatized)
            } catch (e: Exception) {
                Result.failure(e)
            } catch (e: LinkageError) {
                Result.failure(e)
            }
            main.post { finishSend(typed, generation, outcome) }
        }
    }

    private fun finishSend(typed: String, generation: Int, outcome: Result<String>) {
        sending = false
        updateSendKey()
        outcome.onSuccess { privatized ->
            if (generation != fieldGeneration) {
                showStatus("Sent, but the field changed: not inserted", 3_000)
                return
            }
            currentInputConnection?.commitText(privatized, 1)
            // Keep anything typed while the send was running.
            if (buffer.startsWith(typed)) buffer.delete(0, typed.length) else buffer.setLength(0)
            keyboardView?.setPreview(buffer)
            showStatus("Sent privately", 1_500)
        }.onFailure { error ->
            Log.w(TAG, "send failed: ${error.message}")
            // The buffer is kept so the user can retry or edit.
            showStatus(WordVeilSetup.userMessage(error), 3_000)
        }
    }

    private fun updateSendKey() {
        keyboardView?.setSendEnabled(ready && !sending)
    }

    /** Shows [message] in the keyboard's status line; for [millis] > 0, hides it after that long. */
    private fun showStatus(message: String, millis: Long) {
        main.removeCallbacks(clearStatus)
        keyboardView?.setStatus(message)
        if (millis > 0) main.postDelayed(clearStatus, millis)
    }

    override fun onTrimMemory(level: Int) {
        super.onTrimMemory(level)
        // Any trim request (the keyboard was hidden, the system is low on
        // memory): hand the Go heap's free pages back to the OS.
        onWorker { WordVeilSetup.freeOSMemoryQuietly() }
    }

    private fun onWorker(task: () -> Unit) {
        try {
            if (!worker.isShutdown) worker.execute { task() }
        } catch (e: RejectedExecutionException) {
            // Shutting down: nothing to free any more.
        }
    }

    override fun onDestroy() {
        main.removeCallbacksAndMessages(null)
        // Close the privatizer on the worker, after any task still queued:
        // it releases the memo file, the ledger and the Go-side memory now
        // rather than when the finalizer runs. Any later call would get WV_CLOSED.
        onWorker {
            try {
                privatizer?.close()
            } catch (e: Exception) {
                Log.w(TAG, "closing the privatizer", e)
            }
            privatizer = null
        }
        worker.shutdown()
        keyboardView = null
        super.onDestroy()
    }

    private companion object {
        const val TAG = "WordVeilKeyboard"
    }
}
