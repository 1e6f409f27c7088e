package io.github.wordveil.sample

import android.content.Context
import java.io.File

/**
 * One place for how this sample configures WordVeil, shared by the keyboard
 * and the demo screen.
 *
 * Every call into the SDK goes through the gomobile-generated Java package
 * `mobile`: package functions are static methods of [mobile.Mobile], and the
 * Go structs are the classes [mobile.Config], [mobile.Privatizer],
 * [mobile.Result] and [mobile.Deniability]. A Go error arrives as a
 * java.lang.Exception whose message is the Go error text, which starts with
 * a stable code ("WV_BUDGET_EXCEEDED: ...").
 */
object WordVeilSetup {
    /** Mechanisms selectable in the demo (Go names; "tem" has no preset and is left out). */
    val MECHANISMS = listOf("brr", "tem-hamming", "1dg", "1dt")

    /** Privacy levels (docs/PRIVACY_LEVELS.md): the chance a word survives unchanged is ≈ 0.10 / 0.30 / 0.60. */
    val PRESETS = listOf("strong", "balanced", "light")

    /** Mechanism and level the keyboard uses. */
    const val KEYBOARD_MECHANISM = "brr"
    const val KEYBOARD_PRESET = "balanced"

    /**
     * Soft memory limit for the keyboard process's Go runtime
     * (Mobile.setMemoryLimit): about 30 MB.
     */
    const val KEYBOARD_MEMORY_LIMIT_BYTES: Long = 30L shl 20

    /**
     * Budget caps, in WordVeil's metric loss (ε·P_avg per word). With
     * BRR "balanced" a word costs about 62, so the daily cap allows roughly
     * 800 words a day and the lifetime cap roughly 80,000 words. The
     * 1-Diffractor mechanisms cost far more per word in this unit (about
     * 13,000 for 1dg "balanced"), which is why the keyboard uses BRR.
     */
    const val CAP_PER_DAY = 50_000.0
    const val CAP_LIFETIME = 5_000_000.0
    const val PERIOD_SECONDS = 86_400L

    /**
     * The keyboard's ledger: the privacy budget of everything the keyboard
     * ever releases, in the app's private files directory. The ledger is
     * safe to share between processes (flock), so it does not matter that
     * the keyboard runs in its own process.
     */
    fun keyboardLedgerDir(context: Context): String =
        File(context.filesDir, "wordveil/keyboard-ledger").absolutePath

    /**
     * Permanent responses for the keyboard: a word typed again is answered
     * with its first response, so its privacy loss is paid once instead of
     * on every use (see docs/TEXT_PRIVACY.md for the trade-off: repeated
     * words then look alike in the output). The memo file is sealed with
     * a 32-byte secret from MemoSecretStore. Set to false to disable.
     */
    const val KEYBOARD_USE_MEMO = true

    fun keyboardMemoDir(context: Context): String =
        File(context.filesDir, "wordveil/keyboard-memo").absolutePath

    /**
     * The demo screen's ledger. Nothing the demo produces leaves the device,
     * so it is kept apart from the keyboard's budget: experimenting with
     * 1dg/1dt in the demo must not use up the keyboard's daily budget.
     */
    fun demoLedgerDir(context: Context): String =
        File(context.filesDir, "wordveil/demo-ledger").absolutePath

    /**
     * The keyboard's configuration. Throws if the memo is on and its secret
     * cannot be had from the Keystore (MemoSecretStore.load): the keyboard
     * then does not start rather than run without a sealed memo.
     */
    fun keyboardConfig(context: Context): mobile.Config {
        val cfg = mobile.Mobile.newConfig()
        cfg.setMechanism(KEYBOARD_MECHANISM)
        cfg.setPreset(KEYBOARD_PRESET)
        cfg.setOOV("placeholder") // names, numbers, e-mail addresses become "•"
        cfg.setLedgerDir(keyboardLedgerDir(context))
        cfg.setCapPerPeriod(CAP_PER_DAY)
        cfg.setPeriodSeconds(PERIOD_SECONDS)
        cfg.setCapLifetime(CAP_LIFETIME)
        // Rollback anchors outside the ledger and memo directories: a rolled-back
        // ledger or memo then fails closed (AnchorStore).
        cfg.setAnchor(AnchorStore(context))
        if (KEYBOARD_USE_MEMO) {
            // The memo file is sealed with a secret kept under an Android
            // Keystore key (MemoSecretStore); if it cannot be had, this throws.
            val secret = MemoSecretStore.load(context)
            try {
                cfg.setMemoDir(keyboardMemoDir(context))
                cfg.setMemoSecret(secret) // the binding copies the bytes into Go
            } finally {
                secret.fill(0)
            }
        }
        return cfg
    }

    /** The demo screen's configuration for a mechanism and level. */
    fun demoConfig(context: Context, mechanism: String, preset: String): mobile.Config {
        val cfg = mobile.Mobile.newConfig()
        cfg.setMechanism(mechanism)
        cfg.setPreset(preset)
        cfg.setOOV("random-word")
        cfg.setLedgerDir(demoLedgerDir(context))
        cfg.setCapPerPeriod(CAP_PER_DAY * 100)
        cfg.setPeriodSeconds(PERIOD_SECONDS)
        cfg.setCapLifetime(CAP_LIFETIME * 100)
        return cfg
    }

    /**
     * A short message for a user, from an exception thrown by the SDK. The
     * code is read with Mobile.errCode, which returns "" for a message that
     * does not start with one (for example an UnsatisfiedLinkError).
     */
    fun userMessage(t: Throwable): String {
        val message = t.message ?: t.javaClass.simpleName
        val code = try {
            mobile.Mobile.errCode(message)
        } catch (e: LinkageError) { // the native library itself failed to load
            ""
        }
        return when (code) {
            "WV_BUDGET_EXCEEDED" -> "Privacy budget used up: nothing was sent"
            "WV_EMPTY_TEXT" -> "Nothing to send"
            "WV_TEXT_TOO_LARGE" -> "Text too long"
            "WV_CORRUPT_STATE" -> "Privacy ledger is damaged: sending is blocked"
            "WV_IO" -> "Storage error: nothing was sent"
            "WV_INVALID_ARGUMENT" -> "Invalid setting: " + message.substringAfter(": ")
            "WV_CORRUPT_ASSET" -> "Word list is damaged"
            "WV_INTERNAL" -> "Internal error: nothing was sent"
            else -> message
        }
    }

    /**
     * Mobile.freeOSMemory(), for onTrimMemory; never throws (a keyboard must
     * not crash because the native library could not be loaded).
     */
    fun freeOSMemoryQuietly() {
        try {
            mobile.Mobile.freeOSMemory()
        } catch (e: LinkageError) {
            // Nothing loaded, nothing to free.
        }
    }

    /** "−1" from the SDK means "no cap". */
    fun formatRemaining(remaining: Double): String =
        if (remaining < 0) "no cap" else String.format("%.1f", remaining)
}
