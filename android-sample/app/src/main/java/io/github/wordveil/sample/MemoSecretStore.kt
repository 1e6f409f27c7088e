package io.github.wordveil.sample

import android.content.Context
import android.security.keystore.KeyGenParameterSpec
import android.security.keystore.KeyProperties
import java.io.DataInputStream
import java.io.DataOutputStream
import java.io.File
import java.io.FileInputStream
import java.io.FileOutputStream
import java.io.IOException
import java.security.GeneralSecurityException
import java.security.KeyStore
import java.security.SecureRandom
import javax.crypto.Cipher
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/**
 * The memo's secret (Config.MemoSecret): 32 random bytes that seal the
 * memo file, kept so that nothing on disk reveals them.
 *
 * How it is stored: the raw secret is generated once with SecureRandom and
 * sealed with AES-256-GCM under a key that lives in the Android Keystore
 * (alias [KEY_ALIAS], non-exportable: its bytes never enter the app's
 * memory). Only the sealed form, `version ‖ IV ‖ ciphertext+tag`, is written,
 * to [sealedFile] in app-private storage. The memo directory and the sealed
 * secret are both excluded from backup (allowBackup="false" and the
 * data-extraction rules), and the Keystore key never leaves the device, so a
 * copied memo file cannot be opened elsewhere.
 *
 * Fail closed: if the sealed file exists but cannot be opened (the Keystore
 * key was deleted, the file was damaged), [load] throws instead of making a
 * new secret, because a new secret could not open the existing memo anyway
 * and silently replacing it would hide the problem. The keyboard then
 * refuses to start the privatizer (see PrivateKeyboardService); clearing
 * the app's data resets both the memo and its secret.
 *
 * Needs API 23 (AES keys in the Android Keystore), which is the sample's
 * minSdk.
 */
object MemoSecretStore {
    /** The Keystore alias of the wrapping key. */
    const val KEY_ALIAS = "wordveil-memo-secret-wrap"

    /** Length of the memo secret; Config.MemoSecret needs at least 32 bytes. */
    const val SECRET_BYTES = 32

    private const val KEYSTORE = "AndroidKeyStore"
    private const val TRANSFORMATION = "AES/GCM/NoPadding"
    private const val TAG_BITS = 128
    private const val FORMAT_VERSION = 1
    private const val MAX_IV_BYTES = 32
    private const val MAX_SEALED_BYTES = 256

    /** Bound to the ciphertext (GCM associated data), so a sealed blob of another purpose is rejected. */
    private val AAD = "wordveil memo secret v1".toByteArray(Charsets.UTF_8)

    private val lock = Any()

    fun sealedFile(context: Context): File =
        File(context.filesDir, "wordveil/keyboard-memo-secret.sealed")

    /**
     * Returns the memo secret, creating and sealing it on first use. The
     * caller owns the returned array and should zero it once it has been
     * handed to Config.setMemoSecret (the binding copies it into Go).
     *
     * @throws GeneralSecurityException if the Keystore refuses or the sealed secret does not open
     * @throws IOException if the sealed file cannot be read or written
     */
    fun load(context: Context): ByteArray = synchronized(lock) {
        val file = sealedFile(context)
        val keyStore = KeyStore.getInstance(KEYSTORE).apply { load(null) }
        if (file.exists()) {
            val key = keyStore.getKey(KEY_ALIAS, null) as? SecretKey
                ?: throw GeneralSecurityException(
                    "the memo secret's Keystore key is gone: the memo cannot be opened (clear the app's data to reset it)"
                )
            return unseal(key, file)
        }
        val key = (keyStore.getKey(KEY_ALIAS, null) as? SecretKey) ?: newWrappingKey()
        val secret = ByteArray(SECRET_BYTES)
        SecureRandom().nextBytes(secret)
        seal(key, secret, file)
        secret
    }

    private fun newWrappingKey(): SecretKey {
        val generator = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES, KEYSTORE)
        generator.init(
            KeyGenParameterSpec.Builder(KEY_ALIAS, KeyProperties.PURPOSE_ENCRYPT or KeyProperties.PURPOSE_DECRYPT)
                .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
                .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
                .setKeySize(256)
                // The Keystore picks a fresh IV for every encryption.
                .setRandomizedEncryptionRequired(true)
                .build()
        )
        return generator.generateKey()
    }

    /** Writes `version ‖ ivLen ‖ IV ‖ ciphertext` to a temporary file, syncs it, then renames it into place. */
    private fun seal(key: SecretKey, secret: ByteArray, file: File) {
        val cipher = Cipher.getInstance(TRANSFORMATION)
        cipher.init(Cipher.ENCRYPT_MODE, key)
        cipher.updateAAD(AAD)
        val sealed = cipher.doFinal(secret)
        val iv = cipher.iv
        val dir = file.parentFile ?: throw IOException("no directory for $file")
        if (!dir.isDirectory && !dir.mkdirs()) throw IOException("cannot create $dir")
        val tmp = File(dir, file.name + ".tmp")
        FileOutputStream(tmp).use { out ->
            DataOutputStream(out).apply {
                writeByte(FORMAT_VERSION)
                writeByte(iv.size)
                write(iv)
                writeShort(sealed.size)
                write(sealed)
                flush()
            }
            out.fd.sync()
        }
        if (!tmp.renameTo(file)) {
            tmp.delete()
            throw IOException("cannot write $file")
        }
    }

    private fun unseal(key: SecretKey, file: File): ByteArray {
        if (file.length() > MAX_SEALED_BYTES) throw GeneralSecurityException("sealed memo secret is corrupt")
        DataInputStream(FileInputStream(file)).use { input ->
            if (input.readUnsignedByte() != FORMAT_VERSION) throw GeneralSecurityException("sealed memo secret: unknown format")
            val ivLen = input.readUnsignedByte()
            if (ivLen == 0 || ivLen > MAX_IV_BYTES) throw GeneralSecurityException("sealed memo secret is corrupt")
            val iv = ByteArray(ivLen).also { input.readFully(it) }
            val n = input.readUnsignedShort()
            if (n > MAX_SEALED_BYTES) throw GeneralSecurityException("sealed memo secret is corrupt")
            val sealed = ByteArray(n).also { input.readFully(it) }
            val cipher = Cipher.getInstance(TRANSFORMATION)
            cipher.init(Cipher.DECRYPT_MODE, key, GCMParameterSpec(TAG_BITS, iv))
            cipher.updateAAD(AAD)
            // doFinal checks the GCM tag: a damaged file or another key throws AEADBadTagException.
            val secret = cipher.doFinal(sealed)
            if (secret.size != SECRET_BYTES) {
                secret.fill(0)
                throw GeneralSecurityException("sealed memo secret has the wrong length")
            }
            return secret
        }
    }
}
