package io.github.wordveil.sample.keyboard

import android.content.Context
import android.graphics.Color
import android.graphics.Typeface
import android.text.TextUtils
import android.util.TypedValue
import android.view.Gravity
import android.view.View
import android.widget.Button
import android.widget.LinearLayout
import android.widget.TextView

/**
 * A deliberately simple keyboard: a preview strip with what has been typed
 * (kept inside the keyboard, not in the editor), three rows of letters, and
 * a bottom row with backspace, space and "Send privately".
 */
class KeyboardView(
    context: Context,
    private val listener: Listener,
) : LinearLayout(context) {

    interface Listener {
        fun onLetter(letter: Char)
        fun onSpace()
        fun onBackspace()
        fun onSendPrivately()
    }

    private val preview = TextView(context)
    private val status = TextView(context)
    private val sendKey: Button

    init {
        orientation = VERTICAL
        setBackgroundColor(Color.rgb(0xEC, 0xEF, 0xF1))
        val pad = dp(4)
        setPadding(pad, pad, pad, pad)

        preview.apply {
            setTextSize(TypedValue.COMPLEX_UNIT_SP, 16f)
            setTextColor(Color.BLACK)
            // One line, cut at the start: the end of what was typed stays visible.
            setSingleLine(true)
            ellipsize = TextUtils.TruncateAt.START
            hint = "Type, then \"Send privately\": only the privatized text reaches the app"
            setPadding(dp(8), dp(4), dp(8), dp(2))
        }
        addView(preview, LayoutParams(LayoutParams.MATCH_PARENT, LayoutParams.WRAP_CONTENT))

        status.apply {
            setTextSize(TypedValue.COMPLEX_UNIT_SP, 12f)
            setTextColor(Color.DKGRAY)
            setPadding(dp(8), 0, dp(8), dp(4))
            visibility = View.GONE
        }
        addView(status, LayoutParams(LayoutParams.MATCH_PARENT, LayoutParams.WRAP_CONTENT))

        for (row in listOf("qwertyuiop", "asdfghjkl", "zxcvbnm")) {
            val line = newRow()
            for (c in row) {
                line.addView(key(c.toString(), 1f) { listener.onLetter(c) })
            }
            addView(line)
        }

        val bottom = newRow()
        bottom.addView(key("⌫", 1.5f) { listener.onBackspace() })
        bottom.addView(key("space", 4f) { listener.onSpace() })
        sendKey = key("Send privately", 3f) { listener.onSendPrivately() }
        sendKey.setTypeface(sendKey.typeface, Typeface.BOLD)
        bottom.addView(sendKey)
        addView(bottom)
    }

    /** Shows what has been typed so far (never sent anywhere as is). */
    fun setPreview(text: CharSequence) {
        preview.text = text
    }

    /** Shows a short status line, or hides it for null. */
    fun setStatus(message: String?) {
        status.text = message ?: ""
        status.visibility = if (message == null) View.GONE else View.VISIBLE
    }

    /** Disables "Send privately" while a send is in progress or the SDK is loading. */
    fun setSendEnabled(enabled: Boolean) {
        sendKey.isEnabled = enabled
    }

    private fun newRow() = LinearLayout(context).apply {
        orientation = HORIZONTAL
        gravity = Gravity.CENTER
        layoutParams = LayoutParams(LayoutParams.MATCH_PARENT, dp(48))
    }

    private fun key(label: String, weight: Float, onClick: () -> Unit) = Button(context).apply {
        text = label
        isAllCaps = false
        minWidth = 0
        minimumWidth = 0
        setPadding(0, 0, 0, 0)
        setTextSize(TypedValue.COMPLEX_UNIT_SP, if (label.length > 1) 14f else 18f)
        setOnClickListener { onClick() }
        layoutParams = LayoutParams(0, LayoutParams.MATCH_PARENT, weight).apply {
            setMargins(dp(2), dp(2), dp(2), dp(2))
        }
    }

    private fun dp(value: Int): Int =
        TypedValue.applyDimension(TypedValue.COMPLEX_UNIT_DIP, value.toFloat(), resources.displayMetrics).toInt()
}
