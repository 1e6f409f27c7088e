plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

// The AAR built by `make aar` in the repository root (gomobile bind).
// It contains the Java package `mobile` (mobile.Mobile, mobile.Config,
// mobile.Privatizer, mobile.Result, mobile.Deniability), the `go` runtime
// glue (go.Seq) and libgojni.so for each Android ABI.
val wordveilAar: File = rootProject.file("../build/wordveil.aar")

android {
    namespace = "io.github.wordveil.sample"
    compileSdk = 35

    defaultConfig {
        applicationId = "io.github.wordveil.sample"
        // 23: AES keys in the Android Keystore (MemoSecretStore).
        minSdk = 23
        targetSdk = 35
        versionCode = 1
        versionName = "1.0"
    }

    buildTypes {
        release {
            isMinifyEnabled = true
            proguardFiles(getDefaultProguardFile("proguard-android-optimize.txt"), "proguard-rules.pro")
            // Sign with your own key for a real release; debug signing keeps
            // `./gradlew assembleRelease` usable for size checks.
            signingConfig = signingConfigs.getByName("debug")
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    kotlinOptions {
        jvmTarget = "17"
    }

    packaging {
        // gomobile's shared library must be extracted as is.
        jniLibs {
            useLegacyPackaging = false
        }
    }
}

dependencies {
    if (!wordveilAar.exists()) {
        throw GradleException(
            "WordVeil AAR not found at $wordveilAar. Build it first: run `make aar` in the " +
                "repository root (needs Go, gomobile and the Android NDK; see android-sample/README.md)."
        )
    }
    // A local-file dependency on the AAR (no repository, no flatDir).
    implementation(files(wordveilAar))
}
