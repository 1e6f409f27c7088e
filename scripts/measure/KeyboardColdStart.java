package wordveil.measure;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;

import mobile.Config;
import mobile.Mobile;
import mobile.Privatizer;

/**
 * A keyboard's cold start through the JVM binding, for one mechanism, in a
 * fresh JVM (scripts/measure-mobile.sh starts one per run): the time from
 * the first touch of the binding (library load, Go runtime start) through
 * Mobile.openPrivatizer (default asset, the mechanism at the "balanced"
 * preset) to the end of the first privatize of a 20-word text, and the
 * process's resident memory before and after (VmRSS, VmHWM from
 * /proc/self/status). Prints one line of key=value pairs.
 *
 * Usage: KeyboardColdStart MECHANISM
 */
public final class KeyboardColdStart {
    // the same text as mobile/bench_test.go's text20 and Measure.java
    static final String TEXT20 = "Please send the quarterly report to my manager before the meeting tomorrow morning so we can discuss the budget together";

    static long statusKB(String field) throws IOException {
        try (BufferedReader r = new BufferedReader(new FileReader("/proc/self/status"))) {
            for (String l; (l = r.readLine()) != null; ) {
                if (l.startsWith(field + ":")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no " + field + " in /proc/self/status");
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) throw new IllegalArgumentException("usage: KeyboardColdStart MECHANISM");
        String mech = args[0];
        long rss0 = statusKB("VmRSS");
        long t0 = System.nanoTime();
        String version = Mobile.version(); // loads libgojni.so, starts the Go runtime
        long t1 = System.nanoTime();
        Config c = Mobile.newConfig();
        c.setMechanism(mech);
        c.setPreset("balanced");
        Privatizer p = Mobile.openPrivatizer(c);
        long t2 = System.nanoTime();
        String out = p.privatize(TEXT20).getText();
        long t3 = System.nanoTime();
        if (out.isEmpty()) throw new AssertionError("empty output");
        long rss1 = statusKB("VmRSS"), hwm = statusKB("VmHWM");
        System.out.printf("mech=%s version=%s load_ms=%.1f open_ms=%.1f first_call_ms=%.2f cold_ms=%.1f rss_before_mb=%.1f rss_after_mb=%.1f go_side_mb=%.1f peak_mb=%.1f%n",
            mech, version, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t3 - t0) / 1e6,
            rss0 / 1024.0, rss1 / 1024.0, (rss1 - rss0) / 1024.0, hwm / 1024.0);
        System.exit(0); // ends the Go runtime's threads too
    }
}
