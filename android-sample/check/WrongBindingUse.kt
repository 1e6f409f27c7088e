// Negative control of scripts/check-android-sample.sh (`make check-android-sample`):
// this file must NOT compile. The check compiles it against the same binding
// classes as the sample and fails if the compiler accepts it, which proves
// that the sample's compile really type-checks calls into the binding.
// It lives outside app/src, so Gradle never sees it.
package io.github.wordveil.sample.check

fun wrongBindingUse(): mobile.Config {
    val cfg = mobile.Mobile.newConfig()
    cfg.setCapLifetime("5000000") // wrong on purpose: setCapLifetime takes a Double
    return cfg
}
