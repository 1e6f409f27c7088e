package io.github.wordveil.sample

import android.content.Context
import java.io.File
import java.io.FileOutputStream
import java.io.IOException

/**
 * The memo's and the ledger's rollback anchors (Config.setAnchor; see
 * docs/STATE_FILES.md): the latest record count and chain head of each
 * state file, kept where a restore of the memo and ledger directories does
 * not bring back an older value. A memo or ledger rolled back (records cut
 * off, an older copy put back) then fails with WV_CORRUPT_STATE instead of
 * answering words afresh or handing budget back.
 *
 * How it is stored: one small file per name in [Context.getNoBackupFilesDir],
 * which Android never backs up nor transfers to another device, apart from
 * the memo and ledger directories under filesDir. The values are a count
 * and a MAC or hash (under 64 bytes) and reveal nothing about what was
 * typed, so they are not sealed. Each store writes a temporary file,
 * syncs it and renames it into place, so a crash leaves the old or the new
 * value, and the SDK accepts a file ahead of its anchor.
 *
 * What it does not resist: a rooted device, or anything else that can
 * rewrite the app's private storage, can roll back the anchors together
 * with the files. Clearing the app's data or uninstalling removes them too,
 * which starts afresh with the memo and ledger, as intended.
 */
class AnchorStore(context: Context) : mobile.StateAnchor {
    private val dir = File(context.noBackupFilesDir, "wordveil-anchors")
    private val lock = Any()

    private fun file(name: String?): File {
        // Names are short ASCII from the SDK ("ledger-", "memo-" or "path-" and 32 hex digits).
        if (name.isNullOrEmpty() || !name.all { it.isLetterOrDigit() || it == '-' }) {
            throw IOException("bad anchor name")
        }
        return File(dir, "$name.anchor")
    }

    /** The value last stored under name, or null if none. */
    override fun load(name: String?): ByteArray? = synchronized(lock) {
        val f = file(name)
        if (!f.exists()) null else f.readBytes()
    }

    override fun store(name: String?, state: ByteArray?) = synchronized(lock) {
        val f = file(name)
        if (!dir.isDirectory && !dir.mkdirs()) throw IOException("cannot create $dir")
        val tmp = File(dir, f.name + ".tmp")
        FileOutputStream(tmp).use { out ->
            out.write(state ?: ByteArray(0))
            out.fd.sync()
        }
        if (!tmp.renameTo(f)) {
            tmp.delete()
            throw IOException("cannot write $f")
        }
    }
}
