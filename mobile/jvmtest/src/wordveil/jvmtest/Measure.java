package wordveil.jvmtest;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.util.Arrays;

import mobile.Config;
import mobile.Mobile;
import mobile.Privatizer;

/**
 * The JVM-side figures of docs/MOBILE.md (run by scripts/measure-mobile.sh):
 * resident memory the Go side adds to the process (VmRSS from /proc/self/status
 * before the binding is loaded, after OpenPrivatizer on the default asset, and
 * after one Privatize), and the time per binding call for a 20-word text.
 * Each figure is also printed as a "figure KEY=VALUE" line, which
 * scripts/measure-mobile.sh hands to scripts/measure/mobiledoc to write
 * into docs/MOBILE.md.
 */
public final class Measure {
    // the same text as mobile/bench_test.go's text20
    static final String TEXT20 = "Please send the quarterly report to my manager before the meeting tomorrow morning so we can discuss the budget together";

    static long status(String field) throws IOException {
        try (BufferedReader r = new BufferedReader(new FileReader("/proc/self/status"))) {
            for (String l; (l = r.readLine()) != null; ) {
                if (l.startsWith(field + ":")) return Long.parseLong(l.replaceAll("[^0-9]", "")); // kB
            }
        }
        return -1;
    }

    static double mb(long kb) { return kb / 1024.0; }

    /** A machine-readable figure for scripts/measure/mobiledoc. */
    static void figure(String key, Object value) {
        System.out.println("figure " + key + "=" + value);
    }

    static String mb1(long kb) { return String.format("%.1f", mb(kb)); }

    static void settle() throws InterruptedException {
        for (int i = 0; i < 3; i++) { System.gc(); Thread.sleep(100); }
    }

    /** Median ns per call over rounds of n calls. */
    static double time(Runnable call, int n, int rounds) {
        for (int i = 0; i < n; i++) call.run(); // warm-up (JIT, pools)
        double[] r = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) call.run();
            r[k] = (System.nanoTime() - t0) / (double) n;
        }
        Arrays.sort(r);
        return r[rounds / 2];
    }

    public static void main(String[] args) throws Exception {
        // warm the Java side first so that its growth is not counted as Go's
        time(() -> TEXT20.toLowerCase(), 20000, 3);
        settle();
        long rss0 = status("VmRSS"), anon0 = status("RssAnon"), file0 = status("RssFile");
        String v = Mobile.version(); // loads libgojni.so, starts the Go runtime
        settle();
        long rss1 = status("VmRSS");
        Privatizer p = Mobile.openPrivatizer(null);
        settle();
        long rss2 = status("VmRSS");
        if (p.privatize(TEXT20).getWords() != 20) throw new AssertionError("want 20 words");
        settle();
        long rss3 = status("VmRSS"), anon3 = status("RssAnon"), file3 = status("RssFile");
        Mobile.freeOSMemory();
        settle();
        long rss4 = status("VmRSS");
        System.out.printf("version %s%n", v);
        System.out.printf("VmRSS JVM before the binding:          %7.1f MB%n", mb(rss0));
        System.out.printf("  + Go runtime (library loaded):        %+7.1f MB%n", mb(rss1 - rss0));
        System.out.printf("  + OpenPrivatizer(default asset, brr):  %+7.1f MB%n", mb(rss2 - rss1));
        System.out.printf("  + one Privatize (20 words):           %+7.1f MB%n", mb(rss3 - rss2));
        System.out.printf("Go side total after first call:         %7.1f MB  (after FreeOSMemory: %.1f MB)%n",
            mb(rss3 - rss0), mb(rss4 - rss0));
        // Anonymous memory is what the app owns (dirty, counted by iOS's
        // footprint and Android's PSS); file-backed pages are the library's
        // code and its embedded asset, clean and reclaimable by the kernel.
        System.out.printf("  of which anonymous (heap, stacks):     %7.1f MB%n", mb(anon3 - anon0));
        System.out.printf("  of which file-backed (code, asset):    %7.1f MB%n", mb(file3 - file0));

        Config c1 = Mobile.newConfig();
        c1.setMechanism("1dg");
        Privatizer p1 = Mobile.openPrivatizer(c1);
        Config ct = Mobile.newConfig();
        ct.setMechanism("tem-hamming");
        Privatizer pt = Mobile.openPrivatizer(ct);
        pt.privatize(TEXT20);
        settle();
        long rss5 = status("VmRSS");
        System.out.printf("Go side with brr + 1dg + tem-hamming privatizers: %.1f MB%n", mb(rss5 - rss0));
        figure("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        figure("mem.runtime_mb", mb1(rss1 - rss0));
        figure("mem.open_mb", mb1(rss2 - rss1));
        figure("mem.call_mb", mb1(rss3 - rss2));
        figure("mem.go_side_mb", mb1(rss3 - rss0));
        figure("mem.after_free_mb", mb1(rss4 - rss0));
        figure("mem.anon_mb", mb1(anon3 - anon0));
        figure("mem.file_mb", mb1(file3 - file0));
        figure("mem.three_mb", mb1(rss5 - rss0));

        double brr = time(() -> { try { p.privatize(TEXT20).getText(); } catch (Exception e) { throw new RuntimeException(e); } }, 2000, 7);
        double dg = time(() -> { try { p1.privatize(TEXT20).getText(); } catch (Exception e) { throw new RuntimeException(e); } }, 100000, 7);
        double ec = time(() -> Mobile.errCode("WV_IO: x"), 1000000, 7);
        System.out.printf("Java privatize(20 words) + getText, brr: %10.0f ns/call%n", brr);
        System.out.printf("Java privatize(20 words) + getText, 1dg: %10.0f ns/call%n", dg);
        System.out.printf("Java Mobile.errCode (trivial call):      %10.0f ns/call%n", ec);
        figure("call.brr_ns", String.format("%.0f", brr));
        figure("call.1dg_ns", String.format("%.0f", dg));
        figure("call.errcode_ns", String.format("%.1f", ec));
        settle();
        System.out.printf("VmRSS at the end %.1f MB, VmHWM %.1f MB%n", mb(status("VmRSS")), mb(status("VmHWM")));
        System.exit(0);
    }
}
