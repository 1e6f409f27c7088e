// Top-level build file. The WordVeil SDK itself is not fetched from any
// repository: app/build.gradle.kts takes the AAR that `make aar` writes to
// ../build/wordveil.aar (the repository root's build/ directory).
plugins {
    id("com.android.application") version "8.7.3" apply false
    id("org.jetbrains.kotlin.android") version "2.0.21" apply false
}
