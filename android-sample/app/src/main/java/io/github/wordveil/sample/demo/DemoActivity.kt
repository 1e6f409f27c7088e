package io.github.wordveil.sample.demo

import android.app.Activity
import android.content.Intent
import android.os.Bundle
import android.os.Handler
import android.os.Looper
import android.provider.Settings
import android.widget.ArrayAdapter
import android.widget.Button
import android.widget.EditText
import android.widget.Spinner
import android.widget.TextView
import android.widget.Toast
import io.github.wordveil.sample.R
import io.github.wordveil.sample.WordVeilSetup
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors

/**
 * Try WordVeil without the keyboard: type a text, pick a mechanism and a
 * privacy level, and see the input and its privatization side by side with
 * the accounting; "Deniability" estimates, for the chosen setting, how
 * often a word is released unchanged and how many different outputs it has.
 *
 * Nothing here leaves the device, and the demo keeps its own ledger apart
 * from the keyboard's budget (WordVeilSetup.demoLedgerDir).
 */
class DemoActivity : Activity() {

    private val main = Handler(Looper.getMainLooper())
    private lateinit var worker: ExecutorService

    /** One privatizer per (mechanism, preset), created on [worker] and used only there. */
    private val privatizers = HashMap<Pair<String, String>, mobile.Privatizer>()

    private lateinit var input: EditText
    private lateinit var mechanism: Spinner
    private lateinit var preset: Spinner
    private lateinit var privatizeButton: Button
    private lateinit var deniabilityButton: Button
    private lateinit var inputView: TextView
    private lateinit var outputView: TextView
    private lateinit var accountingView: TextView

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_demo)
        worker = Executors.newSingleThreadExecutor { r -> Thread(r, "wordveil-demo") }

        input = findViewById(R.id.input)
        mechanism = findViewById(R.id.mechanism)
        preset = findViewById(R.id.preset)
        privatizeButton = findViewById(R.id.privatize)
        deniabilityButton = findViewById(R.id.deniability)
        inputView = findViewById(R.id.input_echo)
        outputView = findViewById(R.id.output)
        accountingView = findViewById(R.id.accounting)

        mechanism.adapter = spinnerAdapter(WordVeilSetup.MECHANISMS)
        preset.adapter = spinnerAdapter(WordVeilSetup.PRESETS)
        preset.setSelection(WordVeilSetup.PRESETS.indexOf("balanced"))

        privatizeButton.setOnClickListener { privatize() }
        deniabilityButton.setOnClickListener { deniability() }
        findViewById<Button>(R.id.enable_keyboard).setOnClickListener {
            startActivity(Intent(Settings.ACTION_INPUT_METHOD_SETTINGS))
        }

        val version = findViewById<TextView>(R.id.version)
        runOnWorker({ mobile.Mobile.version() }) { result ->
            version.text = result.fold({ "WordVeil SDK $it" }, { "WordVeil SDK unavailable: ${WordVeilSetup.userMessage(it)}" })
        }
    }

    private fun privatize() {
        val text = input.text.toString()
        val mech = mechanism.selectedItem as String
        val level = preset.selectedItem as String
        setBusy(true)
        runOnWorker({
            val r = privatizer(mech, level).privatize(text)
            getString(
                R.string.accounting,
                r.getWords(),
                r.getOOV(),
                r.getUnitFree(),
                WordVeilSetup.formatRemaining(r.getLifetimeRemaining()),
            ) to r.getText()
        }) { result ->
            setBusy(false)
            result.onSuccess { (accounting, privatized) ->
                inputView.text = text
                outputView.text = privatized
                accountingView.text = accounting
            }.onFailure { showError(it) }
        }
    }

    private fun deniability() {
        val mech = mechanism.selectedItem as String
        val level = preset.selectedItem as String
        setBusy(true)
        runOnWorker({
            val d = privatizer(mech, level).deniability(DENIABILITY_WORDS, DENIABILITY_DRAWS)
            getString(R.string.deniability_result, mech, level, d.getMeanN(), d.getMeanS(), DENIABILITY_DRAWS,
                DENIABILITY_WORDS)
        }) { result ->
            setBusy(false)
            result.onSuccess { accountingView.text = it }.onFailure { showError(it) }
        }
    }

    /** On [worker] only. */
    private fun privatizer(mech: String, level: String): mobile.Privatizer =
        privatizers.getOrPut(mech to level) {
            mobile.Mobile.openPrivatizer(WordVeilSetup.demoConfig(this, mech, level))
        }

    /** Runs [task] on the worker and delivers its outcome on the main thread, unless the activity is gone. */
    private fun <T> runOnWorker(task: () -> T, done: (Result<T>) -> Unit) {
        worker.execute {
            val outcome: Result<T> = try {
                Result.success(task())
            } catch (e: Exception) {
                Result.failure(e)
            } catch (e: LinkageError) {
                Result.failure(e)
            }
            main.post { if (!isFinishing && !isDestroyed) done(outcome) }
        }
    }

    private fun setBusy(busy: Boolean) {
        privatizeButton.isEnabled = !busy
        deniabilityButton.isEnabled = !busy
    }

    private fun showError(error: Throwable) {
        val message = WordVeilSetup.userMessage(error)
        accountingView.text = error.message ?: message
        Toast.makeText(this, message, Toast.LENGTH_SHORT).show()
    }

    private fun spinnerAdapter(items: List<String>) =
        ArrayAdapter(this, android.R.layout.simple_spinner_item, items).apply {
            setDropDownViewResource(android.R.layout.simple_spinner_dropdown_item)
        }

    override fun onTrimMemory(level: Int) {
        super.onTrimMemory(level)
        if (!worker.isShutdown) worker.execute { WordVeilSetup.freeOSMemoryQuietly() }
    }

    override fun onDestroy() {
        main.removeCallbacksAndMessages(null)
        // Close every privatizer on the worker, after the tasks still queued:
        // their Go-side memory is released now, not when finalizers run.
        if (!worker.isShutdown) worker.execute {
            for (p in privatizers.values) {
                try {
                    p.close()
                } catch (e: Exception) {
                    // Closing cannot be retried; the activity is going away.
                }
            }
            privatizers.clear()
        }
        worker.shutdown()
        super.onDestroy()
    }

    private companion object {
        const val DENIABILITY_WORDS = 100L
        const val DENIABILITY_DRAWS = 100L
    }
}
