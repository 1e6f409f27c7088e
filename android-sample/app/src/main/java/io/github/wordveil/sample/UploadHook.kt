package io.github.wordveil.sample

import android.util.Log
import java.net.HttpURLConnection
import java.net.URL

/**
 * Receives the text that leaves the device. The keyboard calls it with the
 * privatized text only, never with what was typed, on its background
 * thread; an implementation may block (for example on network I/O).
 * Exceptions it throws are caught and shown to the user as a failed upload.
 */
fun interface UploadHook {
    fun upload(privatizedText: String)
}

/**
 * The default hook: logs what would be uploaded, and makes no network call.
 *
 * To post to your server, set [POST_ENABLED] to true and [ENDPOINT] to your
 * URL, and add `<uses-permission android:name="android.permission.INTERNET"/>`
 * to AndroidManifest.xml (the sample deliberately does not declare it, so
 * the APK as shipped cannot send anything anywhere).
 */
class PlaceholderUploadHook(
    private val endpoint: String = ENDPOINT,
    private val postEnabled: Boolean = POST_ENABLED,
) : UploadHook {

    override fun upload(privatizedText: String) {
        Log.i(TAG, "would upload ${privatizedText.length} chars to $endpoint: $privatizedText")
        if (!postEnabled) return
        val connection = URL(endpoint).openConnection() as HttpURLConnection
        try {
            connection.requestMethod = "POST"
            connection.connectTimeout = 10_000
            connection.readTimeout = 10_000
            connection.doOutput = true
            connection.setRequestProperty("Content-Type", "text/plain; charset=utf-8")
            connection.outputStream.use { it.write(privatizedText.toByteArray(Charsets.UTF_8)) }
            val status = connection.responseCode
            if (status !in 200..299) {
                throw java.io.IOException("upload failed: HTTP $status")
            }
        } finally {
            connection.disconnect()
        }
    }

    companion object {
        private const val TAG = "WordVeilUpload"

        /** Placeholder endpoint; change it in code. */
        const val ENDPOINT = "https://example.invalid/wordveil/upload"

        /** Off by default: no network call is made. */
        const val POST_ENABLED = false
    }
}
