package wordveil.jvmtest;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import mobile.Config;
import mobile.Deniability;
import mobile.Mobile;
import mobile.Privatizer;
import mobile.Result;

/**
 * Tests of the gobind-generated Java binding of package mobile on the host
 * JVM (run by scripts/jvm-test.sh). Plain Java, no JUnit: each test is a
 * method; a failed check throws AssertionError. Ends with "N passed, N
 * failed" and exits non-zero on failure (System.exit also ends the Go
 * runtime's non-daemon threads, which would otherwise keep the JVM alive).
 */
public final class BindingTest {
    static final String SAMPLE = "Call Dr. Smith at 555-0100, e-mail smith@example.org";
    static final String[] MECHANISMS = {"brr", "tem-hamming", "1dg", "1dt"};

    interface Body { void run() throws Exception; }

    static int passed, failed;

    static void test(String name, Body b) {
        long t0 = System.nanoTime();
        try {
            b.run();
            passed++;
            System.out.printf("PASS %-32s %7.0f ms%n", name, (System.nanoTime() - t0) / 1e6);
        } catch (Throwable e) {
            failed++;
            System.out.printf("FAIL %-32s %s%n", name, e);
            e.printStackTrace(System.out);
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    static boolean hasDigit(String s) {
        for (int i = 0; i < s.length(); i++) if (Character.isDigit(s.charAt(i))) return true;
        return false;
    }

    /** Runs body, which must throw an Exception whose message starts with "code: ". */
    static String expectCode(String code, Body body) {
        try {
            body.run();
        } catch (Exception e) {
            String m = e.getMessage();
            check(m != null && m.startsWith(code + ": "), "want message starting with " + code + ": , got " + m);
            check(code.equals(Mobile.errCode(m)), "Mobile.errCode(" + m + ") = " + Mobile.errCode(m) + ", want " + code);
            return m;
        }
        throw new AssertionError("no exception, want " + code);
    }

    static Config cfg(String mechanism) {
        Config c = Mobile.newConfig();
        c.setMechanism(mechanism);
        return c;
    }

    public static void main(String[] args) throws Exception {
        String assetPath = args.length > 0 ? args[0] : "assets/en-glove100-50k.wva";
        System.out.println("WordVeil JVM binding test, version " + Mobile.version() + ", asset " + assetPath);

        test("construction (default config)", () -> {
            Config c = Mobile.newConfig();
            check("brr".equals(c.getMechanism()), "default mechanism " + c.getMechanism());
            check("balanced".equals(c.getPreset()), "default preset " + c.getPreset());
            check("random-word".equals(c.getOOV()), "default OOV " + c.getOOV());
            check(c.getEpsilon() == 0 && c.getLedgerDir().isEmpty(), "default epsilon/ledger");
            Config viaCtor = new Config(); // gobind maps NewConfig to the constructor
            check("brr".equals(viaCtor.getMechanism()), "new Config() mechanism " + viaCtor.getMechanism());
            Privatizer p = Mobile.openPrivatizer(c);
            check(p.vocabularySize() == 50000, "vocabulary " + p.vocabularySize());
            check(p.epsilon() > 0 && !p.metric().isEmpty(), "epsilon " + p.epsilon() + " metric " + p.metric());
            // A zero-value handle (gobind's no-arg constructor) must fail
            // with an error, never abort the JVM with a Go panic.
            expectCode(Mobile.CodeInternal, () -> new Privatizer().privatize("hello world"));
            Privatizer r = Mobile.openPrivatizer(null); // nil config: defaults
            check(r.privatize("hello world").getText().length() > 0, "null config");
            check(!Mobile.version().isEmpty(), "version");
        });

        for (String mech : MECHANISMS) {
            test("privatize with " + mech, () -> {
                Privatizer p = Mobile.openPrivatizer(cfg(mech));
                Result r = p.privatize(SAMPLE);
                String t = r.getText();
                check(!t.contains("555") && !t.contains("@") && !hasDigit(t), mech + " leaked: " + t);
                check(r.getWords() > 0 && r.getOOV() >= 2 && r.getUnitFree() > 0 && r.getEpsilon() > 0, mech + " accounting");
                check(r.getTotalEpsilon() > 0 && !r.getMetric().isEmpty(), mech + " metric/total");
                check(r.getLifetimeRemaining() == -1 && r.getPeriodRemaining() == -1, mech + " remaining without ledger");
                check(p.deniability(20, 20).getWords() == 20, mech + " deniability");
            });
        }

        test("invalid arguments -> WV_INVALID_ARGUMENT", () -> {
            Config c = Mobile.newConfig();
            c.setEpsilon(-1);
            expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(c));
            c.setEpsilon(Double.NaN);
            expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(c));
            expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(cfg("vickrey")));
            Config d = Mobile.newConfig();
            d.setPreset("paranoid");
            expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(d));
            Privatizer p = Mobile.openPrivatizer(null);
            expectCode(Mobile.CodeInvalidArgument, () -> p.deniability(0, 5));
            expectCode(Mobile.CodeEmptyText, () -> p.privatize(""));
            Config e = Mobile.newConfig();
            e.setMaxTextBytes(10);
            Privatizer small = Mobile.openPrivatizer(e);
            expectCode(Mobile.CodeTextTooLarge, () -> small.privatize("more than ten bytes of text"));
            check(Mobile.errCode("no code here").isEmpty(), "errCode of a plain message");
        });

        test("corrupt asset -> WV_CORRUPT_ASSET", () -> {
            byte[] good = Files.readAllBytes(java.nio.file.Paths.get(assetPath));
            byte[] flipped = good.clone();
            flipped[flipped.length / 2] ^= (byte) 0xff;
            expectCode(Mobile.CodeCorruptAsset, () -> Mobile.openPrivatizerFromAsset(flipped, null));
            byte[] truncated = java.util.Arrays.copyOf(good, 100);
            expectCode(Mobile.CodeCorruptAsset, () -> Mobile.openPrivatizerFromAsset(truncated, null));
            byte[] garbage = new byte[4096];
            new Random(1).nextBytes(garbage);
            expectCode(Mobile.CodeCorruptAsset, () -> Mobile.openPrivatizerFromAsset(garbage, null));
            expectCode(Mobile.CodeCorruptAsset, () -> Mobile.openPrivatizerFromAsset(new byte[0], null));
            expectCode(Mobile.CodeCorruptAsset, () -> Mobile.openPrivatizerFromAsset(java.util.Arrays.copyOf(good, good.length - 1), null));
            expectCode(Mobile.CodeIO, () -> Mobile.openPrivatizerFromFile("/nonexistent/x.wva", null));
            // The good bytes work, and the privatizer does not depend on the
            // Java array afterwards ([]byte arguments are not copied by gobind;
            // the facade must copy).
            byte[] bytes = good.clone();
            Privatizer p = Mobile.openPrivatizerFromAsset(bytes, null);
            java.util.Arrays.fill(bytes, (byte) 0);
            System.gc();
            for (int i = 0; i < 50; i++) {
                Result r = p.privatize(SAMPLE);
                check(r.getWords() > 0 && !hasDigit(r.getText()), "after zeroing the array: " + r.getText());
            }
            check(Mobile.openPrivatizerFromFile(assetPath, null).vocabularySize() == 50000, "from file");
        });

        test("8 threads x 1000 calls, one privatizer", () -> {
            Privatizer p = Mobile.openPrivatizer(null);
            String input = "Meet me at 10:30 on May 5, room 221, call 555 0100 or 1-800-555-0199 about the 3 reports";
            ExecutorService pool = Executors.newFixedThreadPool(8);
            AtomicInteger ok = new AtomicInteger();
            List<Future<String>> fs = new ArrayList<>();
            for (int th = 0; th < 8; th++) {
                fs.add(pool.submit((Callable<String>) () -> {
                    for (int i = 0; i < 1000; i++) {
                        Result r = p.privatize(input);
                        String t = r.getText();
                        if (hasDigit(t)) return "digits in output: " + t;
                        if (r.getWords() == 0 && r.getOOV() == 0) return "nothing privatized: " + t;
                        ok.incrementAndGet();
                    }
                    return null;
                }));
            }
            pool.shutdown();
            check(pool.awaitTermination(120, TimeUnit.SECONDS), "threads did not finish in 120 s");
            for (Future<String> f : fs) {
                String err = f.get();
                check(err == null, err);
            }
            check(ok.get() == 8000, "successful calls " + ok.get());
        });

        test("the samples' keyboard configuration (memo, period cap, OOV, deniability)", () -> {
            File ledger = Files.createTempDirectory("wordveil-sample-ledger").toFile();
            File memo = Files.createTempDirectory("wordveil-sample-memo").toFile();
            Config c = Mobile.newConfig();
            c.setMechanism("1dg");
            c.setPreset("strong");
            c.setOOV("placeholder");
            c.setLedgerDir(ledger.getAbsolutePath());
            c.setCapPerPeriod(1e9);
            c.setPeriodSeconds(86400);
            c.setCapLifetime(1e12);
            c.setMemoDir(memo.getAbsolutePath());
            Privatizer p = Mobile.openPrivatizer(c);
            Result a = p.privatize("meeting tomorrow at 42 Main Street");
            Result b = p.privatize("meeting tomorrow at 42 Main Street");
            check(a.getText().equals(b.getText()), "memo: permanent responses, got " + a.getText() + " / " + b.getText());
            check(a.getText().contains("\u2022") && !a.getText().contains("42"), "placeholder OOV: " + a.getText());
            check(b.getMemoized() == b.getWords() && b.getUnitFree() == 0, "memoized repeat costs nothing: " + b.getUnitFree());
            check(a.getPeriodRemaining() > 0 && a.getLifetimeRemaining() > 0, "remaining budget reported");
            Deniability d = p.deniability(30, 30);
            check(d.getMeanN() >= 0 && d.getMeanN() <= 1 && d.getMeanS() >= 1 && d.getMeanS() <= 30, "deniability " + d.getMeanN() + " " + d.getMeanS());
            check(memo.listFiles().length == 1, "one memo file");
        });

        test("budget exhaustion -> WV_BUDGET_EXCEEDED", () -> {
            File dir = Files.createTempDirectory("wordveil-ledger").toFile();
            try {
                double u = Mobile.openPrivatizer(null).privatize(SAMPLE).getUnitFree();
                check(u > 0, "unit-free loss " + u);
                Config c = Mobile.newConfig();
                c.setLedgerDir(dir.getPath());
                c.setCapLifetime(1.5 * u);
                Privatizer p = Mobile.openPrivatizer(c);
                Result first = p.privatize(SAMPLE);
                check(Math.abs(first.getLifetimeSpent() - u) < 1e-6 * u, "spent " + first.getLifetimeSpent() + " want " + u);
                check(Math.abs(first.getLifetimeRemaining() - 0.5 * u) < 1e-6 * u, "remaining " + first.getLifetimeRemaining());
                Result[] second = new Result[1];
                expectCode(Mobile.CodeBudgetExceeded, () -> second[0] = p.privatize(SAMPLE));
                check(second[0] == null, "a Result came back with the error");
                // the ledger persists: a new privatizer on the same directory refuses too
                Privatizer again = Mobile.openPrivatizer(c);
                expectCode(Mobile.CodeBudgetExceeded, () -> again.privatize(SAMPLE));
                // a smaller text can still fit
                check(again.privatize("hello").getLifetimeSpent() > u, "small text after refusal");
            } finally {
                File[] fs = dir.listFiles();
                if (fs != null) for (File f : fs) f.delete();
                dir.delete();
            }
        });

        test("1 MB text", () -> {
            String[] words = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs",
                "away", "from", "house", "Alice", "wrote", "letter", "to", "Bob", "42", "times"};
            StringBuilder sb = new StringBuilder(1 << 20);
            Random rnd = new Random(7);
            while (sb.length() < (1 << 20) - 16) {
                sb.append(words[rnd.nextInt(words.length)]).append(rnd.nextInt(12) == 0 ? ".\n" : " ");
            }
            String text = sb.toString();
            Privatizer p = Mobile.openPrivatizer(null);
            Result r = p.privatize(text);
            check(r.getWords() > 150000, "words " + r.getWords());
            check(r.getText().length() > 500000 && !hasDigit(r.getText()), "output length " + r.getText().length());
        });

        test("memory controls", () -> {
            long prev = Mobile.setMemoryLimit(-1);
            check(prev > 0, "memory limit " + prev);
            long was = Mobile.setMemoryLimit(64L << 20);
            check(was == prev, "previous limit");
            check(Mobile.setMemoryLimit(prev) == (64L << 20), "restore");
            Mobile.freeOSMemory();
        });

        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
