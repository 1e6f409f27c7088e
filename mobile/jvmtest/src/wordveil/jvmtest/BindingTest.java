package wordveil.jvmtest;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeSet;
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
 *
 * Profiles, chosen with the system property wordveil.profile:
 *   (unset, the default)  the full iteration counts below;
 *   "emulated"            (java -Dwordveil.profile=emulated), for runs under
 *                         an emulator such as qemu (about 50 ms per call): the
 *                         tests that loop many times run fewer iterations
 *                         (8 threads x 25 calls instead of 8 x 1000; 5 calls
 *                         after zeroing the asset array instead of 50), with
 *                         the same assertions. See iterations().
 * scripts/jvm-test.sh passes no JVM options of its own; the JVM reads the
 * JAVA_TOOL_OPTIONS environment variable, so
 *   JAVA_TOOL_OPTIONS=-Dwordveil.profile=emulated scripts/jvm-test.sh
 * selects the emulated profile. The first output line names the profile.
 */
public final class BindingTest {
    static final String SAMPLE = "Call Dr. Smith at 555-0100, e-mail smith@example.org";
    static final String[] MECHANISMS = {"brr", "tem-hamming", "1dg", "1dt"};
    static final boolean EMULATED = "emulated".equals(System.getProperty("wordveil.profile"));

    /** The iteration count of the active profile: full, or emulated under -Dwordveil.profile=emulated. */
    static int iterations(int full, int emulated) {
        return EMULATED ? emulated : full;
    }

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

    /**
     * leaked returns a digit run of s that is one of runs (the input's
     * numbers the vocabulary lacks), or null. The vocabulary holds some
     * numbers (0-100, years), so an output may contain digits; what must
     * never appear is a number the input had and the vocabulary lacks.
     */
    static String leaked(String s, String... runs) {
        java.util.Set<String> bad = new java.util.HashSet<>(java.util.Arrays.asList(runs));
        for (String run : s.split("[^0-9]+")) if (bad.contains(run)) return run;
        return null;
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

    /** What a call must give: checked against its return value or what it threw. */
    interface Expect { void check(String call, Object ret, Throwable thrown); }

    static Expect returns(Object want) {
        return (call, ret, thrown) -> {
            check(thrown == null, call + " threw " + thrown + ", want " + want);
            check(Objects.equals(ret, want), call + " = " + ret + ", want " + want);
        };
    }

    static Expect returnsWhere(String what, java.util.function.Predicate<Object> ok) {
        return (call, ret, thrown) -> {
            check(thrown == null, call + " threw " + thrown + ", want " + what);
            check(ok.test(ret), call + " = " + ret + ", want " + what);
        };
    }

    static Expect throwsCode(String code) {
        return (call, ret, thrown) -> {
            check(thrown instanceof Exception, call + " returned " + ret + " / threw " + thrown + ", want a " + code + " Exception");
            String m = thrown.getMessage();
            check(m != null && m.startsWith(code + ": ") && code.equals(Mobile.errCode(m)), call + ": message " + m + ", want " + code);
        };
    }

    /** A bound class's zero-value handle (new Config() is NewConfig: the defaults). */
    static Object zeroHandle(Class<?> c) {
        if (c == Privatizer.class) return new Privatizer();
        if (c == Result.class) return new Result();
        if (c == Config.class) return new Config();
        if (c == Deniability.class) return new Deniability();
        throw new AssertionError("no zero-value handle for " + c);
    }

    /** A StateAnchor as an app keeps it in its key store: an in-memory map here. */
    static final class MemAnchor implements mobile.StateAnchor {
        final Map<String, byte[]> store = new HashMap<>();
        @Override public byte[] load(String name) { synchronized (store) { return store.get(name); } }
        @Override public void store(String name, byte[] state) { synchronized (store) { store.put(name, state.clone()); } }
        long count(String prefix) { synchronized (store) { return store.keySet().stream().filter(k -> k.startsWith(prefix)).count(); } }
    }

    /** Zero, null and empty values of a parameter type. */
    static Object[] zeroArgs(Class<?> t) {
        if (t == long.class) return new Object[] {0L};
        if (t == double.class) return new Object[] {0.0};
        if (t == boolean.class) return new Object[] {false};
        if (t == String.class) return new Object[] {null, ""};
        if (t == byte[].class) return new Object[] {null, new byte[0]};
        if (t == Config.class) return new Object[] {null, new Config()};
        if (t == Object.class) return new Object[] {null};
        if (t == mobile.StateAnchor.class) return new Object[] {null};
        throw new AssertionError("no zero arguments for parameter type " + t);
    }

    /** Every combination of zeroArgs for the parameter types. */
    static List<Object[]> argCombinations(Class<?>[] types) {
        List<Object[]> out = new ArrayList<>();
        out.add(new Object[types.length]);
        for (int i = 0; i < types.length; i++) {
            List<Object[]> next = new ArrayList<>();
            for (Object[] prefix : out) {
                for (Object v : zeroArgs(types[i])) {
                    Object[] a = prefix.clone();
                    a[i] = v;
                    next.add(a);
                }
            }
            out = next;
        }
        return out;
    }

    /**
     * What each public method of the bound classes must do on a zero-value
     * handle (static methods of Mobile: with zero, null and empty arguments).
     * A method found by reflection without an entry here fails the test, so
     * a method added to the Go API must be added here.
     */
    static Map<String, Expect> zeroValueExpectations() {
        Map<String, Expect> e = new HashMap<>();
        Expect none = returns(null); // void
        Expect zeroLong = returns(0L), zeroDouble = returns(0.0), empty = returns("");
        // Privatizer: unopened handle -> WV_INVALID_ARGUMENT, or the documented zero value.
        e.put("Privatizer.privatize", throwsCode(Mobile.CodeInvalidArgument));
        e.put("Privatizer.deniability", throwsCode(Mobile.CodeInvalidArgument));
        e.put("Privatizer.epsilon", zeroDouble);
        e.put("Privatizer.metric", empty);
        e.put("Privatizer.vocabularySize", zeroLong);
        e.put("Privatizer.wordCost", zeroDouble);
        e.put("Privatizer.close", none); // nothing to release: no error
        // Result and Deniability: plain records, Go zero values.
        for (String f : new String[] {"Words", "OOV", "Memoized", "PeriodWordsRemaining", "LifetimeWordsRemaining"}) e.put("Result.get" + f, zeroLong);
        for (String f : new String[] {"Epsilon", "TotalEpsilon", "PAvg", "UnitFree", "PeriodSpent",
                "LifetimeSpent", "PeriodRemaining", "LifetimeRemaining"}) e.put("Result.get" + f, zeroDouble);
        for (String f : new String[] {"Text", "Metric", "LossUnknown"}) e.put("Result.get" + f, empty);
        e.put("Result.getLossKnown", returns(false));
        e.put("Deniability.getMeanN", zeroDouble);
        e.put("Deniability.getMeanS", zeroDouble);
        e.put("Deniability.getWords", zeroLong);
        e.put("Deniability.getDraws", zeroLong);
        // Config: new Config() is NewConfig, so its getters give the defaults.
        e.put("Config.getMechanism", returns("brr"));
        e.put("Config.getPreset", returns("balanced"));
        e.put("Config.getOOV", returns("random-word"));
        for (String f : new String[] {"Placeholder", "LedgerDir", "MemoDir"}) e.put("Config.get" + f, empty);
        for (String f : new String[] {"Epsilon", "CapLifetime", "CapPerPeriod"}) e.put("Config.get" + f, zeroDouble);
        for (String f : new String[] {"MaxTextBytes", "PeriodSeconds", "CapLifetimeWords", "CapPerPeriodWords"}) e.put("Config.get" + f, zeroLong);
        e.put("Config.getPrivatizePunctuation", returns(false));
        e.put("Config.getAllowSaturatedEpsilon", returns(false));
        e.put("Config.getAllowExcludedOutputs", returns(false));
        e.put("Config.getNumbers", returns("privatize"));
        for (String f : new String[] {"RareEpsilon", "CapitalizedEpsilon", "NumberEpsilon"}) e.put("Config.get" + f, zeroDouble);
        e.put("Config.getRareRank", zeroLong);
        e.put("Config.getMemoSecret", returnsWhere("null or empty", r -> r == null || ((byte[]) r).length == 0));
        e.put("Config.getAnchor", returns(null));
        e.put("Config.getNoAnchor", returns(false));
        // Every setter of every class, and the Object methods gobind generates.
        for (String c : new String[] {"Privatizer", "Result", "Config", "Deniability"}) {
            e.put(c + ".equals", returns(false)); // equals(null)
            e.put(c + ".hashCode", returnsWhere("an int", r -> r instanceof Integer));
            e.put(c + ".toString", returnsWhere("a string", r -> r instanceof String));
        }
        e.put("*.set*", none);
        // Mobile: the package-level functions.
        e.put("Mobile.openPrivatizer", returnsWhere("a working privatizer (null config: defaults)",
            r -> r instanceof Privatizer && ((Privatizer) r).vocabularySize() == 50000));
        e.put("Mobile.openPrivatizerFromAsset", throwsCode(Mobile.CodeCorruptAsset));
        e.put("Mobile.openPrivatizerFromFile", throwsCode(Mobile.CodeIO));
        e.put("Mobile.resetState", throwsCode(Mobile.CodeInvalidArgument)); // no directory to reset
        e.put("Mobile.errCode", empty);
        e.put("Mobile.freeOSMemory", none);
        e.put("Mobile.touch", none);
        e.put("Mobile.newConfig", returnsWhere("the defaults", r -> r instanceof Config && "brr".equals(((Config) r).getMechanism())));
        e.put("Mobile.version", returnsWhere("a non-empty string", r -> r instanceof String && !((String) r).isEmpty()));
        // 0 only reads the limit (a limit of 0 would stall the app in garbage collection).
        e.put("Mobile.setMemoryLimit", returnsWhere("the current limit, unchanged",
            r -> r instanceof Long && (Long) r > 0 && Mobile.setMemoryLimit(-1) == (Long) r));
        return e;
    }

    /**
     * Calls every public method of every bound class, found by reflection,
     * on zero-value handles and with zero/null/empty arguments: each must
     * give its documented zero value or throw an Exception whose message
     * starts with a WV_ code; none may abort the JVM.
     */
    static void zeroValueHandles() throws Exception {
        Map<String, Expect> want = zeroValueExpectations();
        TreeSet<String> unexpected = new TreeSet<>(), seen = new TreeSet<>();
        int calls = 0;
        for (Class<?> c : Arrays.asList(Privatizer.class, Result.class, Config.class, Deniability.class, Mobile.class)) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (!Modifier.isPublic(mod) || m.isSynthetic() || m.getName().equals("incRefnum")) continue;
                String key = c.getSimpleName() + "." + m.getName();
                Expect e = want.get(key);
                if (e == null && m.getName().startsWith("set") && c != Mobile.class) e = want.get("*.set*");
                if (e == null) {
                    unexpected.add(key);
                    continue;
                }
                seen.add(key);
                for (Object[] args : argCombinations(m.getParameterTypes())) {
                    Object recv = Modifier.isStatic(mod) ? null : zeroHandle(c);
                    Object ret = null;
                    Throwable thrown = null;
                    try {
                        ret = m.invoke(recv, args);
                    } catch (InvocationTargetException ite) {
                        thrown = ite.getCause();
                    }
                    e.check(key + Arrays.deepToString(args), ret, thrown);
                    calls++;
                }
            }
        }
        check(unexpected.isEmpty(), "public methods without an expectation in zeroValueExpectations: " + unexpected);
        for (String k : want.keySet()) {
            check(k.equals("*.set*") || seen.contains(k), "expectation for " + k + ", which the binding does not have");
        }
        check(seen.size() >= 60, "only " + seen.size() + " methods found: " + seen);
        System.out.println("     zero-value handles: " + seen.size() + " methods, " + calls + " calls");
    }

    /** Open file descriptors of this process (Linux: entries of /proc/self/fd). */
    static int openFDs() {
        String[] fds = new File("/proc/self/fd").list();
        check(fds != null, "no /proc/self/fd");
        return fds.length;
    }

    /** A /proc/self/status field, in kB. */
    static long statusKB(String field) throws java.io.IOException {
        for (String l : Files.readAllLines(java.nio.file.Paths.get("/proc/self/status"))) {
            if (l.startsWith(field + ":")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
        throw new AssertionError("no " + field + " in /proc/self/status");
    }

    /** Cycles after which descriptors and memory are taken as the plateau. */
    static final int PLATEAU = 50;
    /** Allowed growth after the plateau: descriptors, and resident memory in kB. */
    static final int FD_SLACK = 4;
    static final long RSS_SLACK_KB = 32 << 10;

    /**
     * n cycles of openPrivatizer (embedded asset, BRR, a memo and a ledger in
     * temp dirs), one privatize, close; no System.gc, so no finalizer is
     * forced to run. After the first PLATEAU cycles the descriptor count
     * may grow by at most FD_SLACK and VmRSS by at most RSS_SLACK_KB. With
     * -Dwordveil.closeCycles=skip (the negative control) the cycles do not
     * call close, keep the handles (as an app that forgets close does until
     * the finalizers run) and the test must fail: each handle holds its
     * memo file open and its mechanism in memory.
     */
    static void closeCycles(int n) throws Exception {
        boolean skip = "skip".equals(System.getProperty("wordveil.closeCycles"));
        File ledger = Files.createTempDirectory("wordveil-cycles-ledger").toFile();
        File memo = Files.createTempDirectory("wordveil-cycles-memo").toFile();
        Config c = Mobile.newConfig();
        c.setLedgerDir(ledger.getAbsolutePath());
        c.setMemoDir(memo.getAbsolutePath());
        c.setAnchor(new MemAnchor());
        byte[] secret = new byte[32];
        new java.security.SecureRandom().nextBytes(secret);
        c.setMemoSecret(secret);
        List<Privatizer> kept = new ArrayList<>();
        int fd0 = openFDs(), fdPlateau = 0;
        long rss0 = statusKB("VmRSS"), rssPlateau = 0;
        long t0 = System.nanoTime();
        for (int i = 1; i <= n; i++) {
            Privatizer p = Mobile.openPrivatizer(c);
            check(p.privatize(SAMPLE).getWords() > 0, "cycle " + i);
            if (skip) kept.add(p);
            else p.close();
            if (i == Math.min(PLATEAU, n)) {
                fdPlateau = openFDs();
                rssPlateau = statusKB("VmRSS");
            }
        }
        int fdEnd = openFDs();
        long rssEnd = statusKB("VmRSS");
        System.out.printf("     %d cycles%s in %.1f s: descriptors %d before, %d after %d cycles, %d at the end;"
                + " VmRSS %.1f MB before, %.1f MB after %d cycles, %.1f MB at the end (VmHWM %.1f MB)%n",
            n, skip ? " WITHOUT close" : "", (System.nanoTime() - t0) / 1e9, fd0, fdPlateau, PLATEAU, fdEnd,
            rss0 / 1024.0, rssPlateau / 1024.0, PLATEAU, rssEnd / 1024.0, statusKB("VmHWM") / 1024.0);
        for (Privatizer p : kept) p.close();
        check(fdEnd <= fdPlateau + FD_SLACK, "descriptors grew from " + fdPlateau + " to " + fdEnd);
        check(rssEnd - rssPlateau <= RSS_SLACK_KB, String.format("VmRSS grew by %.1f MB after the plateau (bound %d MB)",
            (rssEnd - rssPlateau) / 1024.0, RSS_SLACK_KB >> 10));
    }

    public static void main(String[] args) throws Exception {
        String assetPath = args.length > 0 ? args[0] : "assets/en-glove100-50k.wva";
        System.out.println("WordVeil JVM binding test, version " + Mobile.version() + ", asset " + assetPath
            + ", profile " + (EMULATED ? "emulated" : "default"));

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
            expectCode(Mobile.CodeInvalidArgument, () -> new Privatizer().privatize("hello world"));
            Privatizer r = Mobile.openPrivatizer(null); // nil config: defaults
            check(r.privatize("hello world").getText().length() > 0, "null config");
            check(!Mobile.version().isEmpty(), "version");
        });

        for (String mech : MECHANISMS) {
            test("privatize with " + mech, () -> {
                Privatizer p = Mobile.openPrivatizer(cfg(mech));
                Result r = p.privatize(SAMPLE);
                String t = r.getText();
                check(!t.contains("@") && leaked(t, "555", "0100") == null, mech + " leaked: " + t);
                check(r.getWords() > 0 && r.getOOV() >= 2 && r.getUnitFree() > 0 && r.getEpsilon() > 0 && r.getLossKnown(), mech + " accounting");
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
            for (int i = 0, n = iterations(50, 5); i < n; i++) {
                Result r = p.privatize(SAMPLE);
                check(r.getWords() > 0 && leaked(r.getText(), "555", "0100") == null, "after zeroing the array: " + r.getText());
            }
            check(Mobile.openPrivatizerFromFile(assetPath, null).vocabularySize() == 50000, "from file");
        });

        final int calls = iterations(1000, 25);
        test("8 threads x " + calls + " calls, one privatizer", () -> {
            Privatizer p = Mobile.openPrivatizer(null);
            String input = "Meet me at 10:30 on May 5, room 221, call 555 0100 or 1-800-555-0199 about the 3 reports";
            ExecutorService pool = Executors.newFixedThreadPool(8);
            AtomicInteger ok = new AtomicInteger();
            List<Future<String>> fs = new ArrayList<>();
            for (int th = 0; th < 8; th++) {
                fs.add(pool.submit((Callable<String>) () -> {
                    for (int i = 0; i < calls; i++) {
                        Result r = p.privatize(input);
                        String t = r.getText();
                        String run = leaked(t, "221", "555", "0100", "800", "0199");
                        if (run != null) return "input number " + run + " in output: " + t;
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
            check(ok.get() == 8 * calls, "successful calls " + ok.get() + ", want " + 8 * calls);
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
            c.setAnchor(new MemAnchor());
            expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(c)); // a memo needs its secret
            byte[] secret = new byte[32];
            new java.security.SecureRandom().nextBytes(secret);
            c.setMemoSecret(secret);
            Privatizer p = Mobile.openPrivatizer(c);
            Result a = p.privatize("meeting tomorrow at 4217 Main Street");
            Result b = p.privatize("meeting tomorrow at 4217 Main Street");
            check(a.getText().equals(b.getText()), "memo: permanent responses, got " + a.getText() + " / " + b.getText());
            check(a.getText().contains("\u2022") && leaked(a.getText(), "4217") == null, "placeholder OOV: " + a.getText());
            check(b.getMemoized() == b.getWords() && b.getUnitFree() == 0, "memoized repeat costs nothing: " + b.getUnitFree());
            check(a.getPeriodRemaining() > 0 && a.getLifetimeRemaining() > 0, "remaining budget reported");
            Deniability d = p.deniability(30, 30);
            check(d.getMeanN() >= 0 && d.getMeanN() <= 1 && d.getMeanS() >= 1 && d.getMeanS() <= 30, "deniability " + d.getMeanN() + " " + d.getMeanS());
            // The memo file alone (its lock is the file's own flock); the memo
            // is sealed, so none of the typed words appears in it.
            File[] files = memo.listFiles();
            check(files.length == 1, "one memo file, got " + java.util.Arrays.toString(files));
            for (File f : files) {
                String body = new String(Files.readAllBytes(f.toPath()), java.nio.charset.StandardCharsets.ISO_8859_1);
                check(!body.contains("meeting") && !body.contains("tomorrow"), "plain text in " + f);
            }
        });

        test("a StateAnchor implemented in Java: a restored backup -> WV_CORRUPT_STATE", () -> {
            File root = Files.createTempDirectory("wordveil-anchor").toFile();
            File ledger = new File(root, "ledger"), memo = new File(root, "memo");
            // What an app keeps in its key store, beside the memo secret.
            Map<String, byte[]> store = new HashMap<>();
            mobile.StateAnchor anchor = new mobile.StateAnchor() {
                @Override public byte[] load(String name) { synchronized (store) { return store.get(name); } }
                @Override public void store(String name, byte[] state) { synchronized (store) { store.put(name, state.clone()); } }
            };
            Config c = Mobile.newConfig();
            c.setMechanism("1dg");
            c.setPreset("strong");
            c.setLedgerDir(ledger.getAbsolutePath());
            c.setMemoDir(memo.getAbsolutePath());
            c.setMemoSecret(new byte[32]);
            c.setAnchor(anchor);
            Mobile.openPrivatizer(c).privatize("first words");
            Map<String, byte[]> backup = new HashMap<>();
            for (File d : new File[] {ledger, memo})
                for (File f : d.listFiles()) backup.put(d.getName() + "/" + f.getName(), Files.readAllBytes(f.toPath()));
            Mobile.openPrivatizer(c).privatize("more words here");
            check(store.keySet().stream().filter(k -> k.startsWith("ledger-") || k.startsWith("memo-")).count() == 2, "anchors stored: " + store.keySet());
            for (File d : new File[] {ledger, memo})
                for (File f : d.listFiles()) f.delete();
            for (Map.Entry<String, byte[]> e : backup.entrySet()) Files.write(new File(root, e.getKey()).toPath(), e.getValue());
            expectCode(Mobile.CodeCorruptState, () -> Mobile.openPrivatizer(c));
            c.setAnchor(null); // refused: a memo or ledger needs an anchor, or an explicit opt-out
            String refusal = expectCode(Mobile.CodeInvalidArgument, () -> Mobile.openPrivatizer(c));
            check(refusal.contains("StateAnchor"), "the refusal names StateAnchor: " + refusal);
            c.setNoAnchor(true); // opted out: the restore goes unnoticed (docs/STATE_FILES.md)
            Mobile.openPrivatizer(c).close();
        });

        for (boolean optOut : new boolean[] {false, true}) {
            test("ledger and memo directories deleted after use, " + (optOut ? "NoAnchor: a fresh start (documented)" : "with a StateAnchor -> WV_CORRUPT_STATE"), () -> {
                File root = Files.createTempDirectory("wordveil-deleted").toFile();
                File ledger = new File(root, "ledger"), memo = new File(root, "memo");
                Config c = Mobile.newConfig();
                c.setMechanism("1dg");
                c.setLedgerDir(ledger.getAbsolutePath());
                c.setMemoDir(memo.getAbsolutePath());
                c.setMemoSecret(new byte[32]);
                if (optOut) c.setNoAnchor(true);
                else c.setAnchor(new MemAnchor());
                Privatizer p = Mobile.openPrivatizer(c);
                p.privatize("first words");
                p.close();
                for (File d : new File[] {ledger, memo}) {
                    for (File f : d.listFiles()) f.delete();
                    d.delete();
                }
                if (optOut) Mobile.openPrivatizer(c).close();
                else expectCode(Mobile.CodeCorruptState, () -> Mobile.openPrivatizer(c));
            });
        }

        test("ResetState: a fresh start that a restored pre-reset copy cannot undo", () -> {
            File root = Files.createTempDirectory("wordveil-reset").toFile();
            File ledger = new File(root, "ledger"), memo = new File(root, "memo");
            MemAnchor anchor = new MemAnchor();
            Config c = Mobile.newConfig();
            c.setMechanism("1dg");
            c.setLedgerDir(ledger.getAbsolutePath());
            c.setMemoDir(memo.getAbsolutePath());
            c.setMemoSecret(new byte[32]);
            c.setAnchor(anchor);
            Privatizer p = Mobile.openPrivatizer(c);
            p.privatize("first words");
            p.close();
            Map<String, byte[]> backup = new HashMap<>();
            for (File d : new File[] {ledger, memo})
                for (File f : d.listFiles()) backup.put(d.getName() + "/" + f.getName(), Files.readAllBytes(f.toPath()));
            Mobile.resetState(c);
            byte[] fresh = new byte[32];
            fresh[0] = 1; // the "forget me" flow replaces the memo secret too
            c.setMemoSecret(fresh);
            p = Mobile.openPrivatizer(c);
            check(p.privatize("more words").getLifetimeSpent() < 1e300, "a fresh start");
            p.close();
            for (File d : new File[] {ledger, memo})
                for (File f : d.listFiles()) f.delete();
            for (Map.Entry<String, byte[]> e : backup.entrySet()) Files.write(new File(root, e.getKey()).toPath(), e.getValue());
            c.setMemoSecret(new byte[32]);
            expectCode(Mobile.CodeCorruptState, () -> Mobile.openPrivatizer(c)); // the old secret: retired
            c.setMemoSecret(fresh);
            expectCode(Mobile.CodeCorruptState, () -> Mobile.openPrivatizer(c)); // the new one: the old files
        });

        test("budget exhaustion -> WV_BUDGET_EXCEEDED", () -> {
            File dir = Files.createTempDirectory("wordveil-ledger").toFile();
            try {
                double u = Mobile.openPrivatizer(null).privatize(SAMPLE).getUnitFree();
                check(u > 0, "metric loss " + u);
                Config c = Mobile.newConfig();
                c.setLedgerDir(dir.getPath());
                c.setAnchor(new MemAnchor());
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

        test("cap in words: N words granted, word N+1 -> WV_BUDGET_EXCEEDED", () -> {
            File dir = Files.createTempDirectory("wordveil-ledger").toFile();
            try {
                Config c = Mobile.newConfig();
                c.setLedgerDir(dir.getPath());
                c.setAnchor(new MemAnchor());
                c.setCapLifetimeWords(7);
                Privatizer p = Mobile.openPrivatizer(c);
                check(p.wordCost() > 0, "word cost " + p.wordCost());
                Result r = p.privatize("the cat sat on the mat"); // 6 words
                check(r.getLifetimeWordsRemaining() == 1 && r.getPeriodWordsRemaining() == -1,
                    "words left " + r.getLifetimeWordsRemaining() + ", per period " + r.getPeriodWordsRemaining());
                check(p.privatize("house").getLifetimeWordsRemaining() == 0, "the 7th word");
                Result[] eighth = new Result[1];
                expectCode(Mobile.CodeBudgetExceeded, () -> eighth[0] = p.privatize("house"));
                check(eighth[0] == null, "a Result came back with the error");
            } finally {
                File[] fs = dir.listFiles();
                if (fs != null) for (File f : fs) f.delete();
                dir.delete();
            }
        });

        test("1 MB text", () -> {
            String[] words = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "runs",
                "away", "from", "house", "Alice", "wrote", "letter", "to", "Bob", "4217", "times"};
            StringBuilder sb = new StringBuilder(1 << 20);
            Random rnd = new Random(7);
            while (sb.length() < (1 << 20) - 16) {
                sb.append(words[rnd.nextInt(words.length)]).append(rnd.nextInt(12) == 0 ? ".\n" : " ");
            }
            String text = sb.toString();
            // Under emulation BRR's exact search (~0.2 M words here) takes
            // minutes; 1-DG crosses the same binding path with the same text.
            Privatizer p = Mobile.openPrivatizer(EMULATED ? cfg("1dg") : null);
            Result r = p.privatize(text);
            check(r.getWords() > 150000, "words " + r.getWords());
            check(r.getText().length() > 500000 && leaked(r.getText(), "4217") == null, "output length " + r.getText().length());
        });

        test("every public method on zero-value handles", BindingTest::zeroValueHandles);

        test("close, then every method -> WV_CLOSED", () -> {
            Privatizer p = Mobile.openPrivatizer(cfg("1dg"));
            check(p.privatize(SAMPLE).getWords() > 0, "before close");
            p.close();
            expectCode(Mobile.CodeClosed, () -> p.privatize(SAMPLE));
            expectCode(Mobile.CodeClosed, () -> p.deniability(1, 1));
            check(p.epsilon() == 0 && p.metric().isEmpty() && p.vocabularySize() == 0, "getters after close");
            p.close(); // again: no error
            Privatizer z = new Privatizer();
            z.close();
            expectCode(Mobile.CodeClosed, () -> z.privatize(SAMPLE));
        });

        test("close while 4 threads privatize", () -> {
            Privatizer p = Mobile.openPrivatizer(cfg("1dg"));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<String>> fs = new ArrayList<>();
            for (int th = 0; th < 4; th++) {
                fs.add(pool.submit((Callable<String>) () -> {
                    for (int i = 0; ; i++) {
                        try {
                            p.privatize(SAMPLE);
                        } catch (Exception e) {
                            return Mobile.CodeClosed.equals(Mobile.errCode(e.getMessage())) ? null : "after " + i + " calls: " + e;
                        }
                    }
                }));
            }
            Thread.sleep(50);
            p.close();
            pool.shutdown();
            check(pool.awaitTermination(60, TimeUnit.SECONDS), "threads did not stop after close");
            for (Future<String> f : fs) {
                String err = f.get();
                check(err == null, err);
            }
        });

        test("open/privatize/close cycles: descriptors and memory flat", () -> closeCycles(iterations(1000, 50)));

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
