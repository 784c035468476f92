package dev.reprise.cli.bench;

import java.util.List;

/**
 * A benchmark program of the {@code bench} module: its main class and its arguments for the quick
 * and the full suite. {@code threads} says whether it runs several application threads, whose
 * replay depends on Reprise ordering their synchronization; the bench's first recordings of such a
 * workload learn the plain fields its threads race on ({@code RaceProfile}), as a user's first
 * recordings would. {@code orderedFields} are fields to order besides, given with {@code --order-field}.
 * {@code dacapoKind} says whether it is a real program of a kind DaCapo has, the kind
 * BENCHMARKS.md's targets are set for; the others exercise one of Reprise's capabilities at its
 * limit, which no anchor measured, and the report gives the geomean without them too.
 */
public record Workload(String name, String mainClass, List<String> quickArgs, List<String> fullArgs, boolean threads,
                       String what, List<String> orderedFields, boolean dacapoKind) {
    Workload(String name, String mainClass, List<String> quickArgs, List<String> fullArgs, boolean threads, String what) {
        this(name, mainClass, quickArgs, fullArgs, threads, what, List.of(), true);
    }

    /**
     * Stands for the worker thread count in an argument list: N = max(2, available processors),
     * DaCapo's default of one worker per processor, and at least two so that a one-core machine
     * still runs the workload multi-threaded.
     */
    static final String WORKERS = "WORKERS";

    /** The catalogue, in the order the bench runs and reports them. */
    public static final List<Workload> ALL = List.of(
            new Workload("luindex", "bench.LuIndex", List.of("150"), List.of("1500"), false,
                    "Lucene 9: index JDK sources"),
            new Workload("lusearch", "bench.LuSearch", List.of("150", "150", WORKERS), List.of("1500", "3000", WORKERS), true,
                    "Lucene 9: index, then search from N threads"),
            // H2 races on plain fields (a table's queue of waiting sessions, a page's comparison
            // hint): the bench's first recording learns them.
            new Workload("h2", "bench.H2", List.of("200", WORKERS), List.of("4000", WORKERS), true,
                    "H2 in-memory SQL database, N client threads"),
            new Workload("xalan", "bench.Xalan", List.of("500", "2", WORKERS), List.of("4000", "10", WORKERS), true,
                    "Xalan XSLT transforms of a generated document from N threads"),
            new Workload("zxing", "bench.Zxing", List.of("40"), List.of("400"), false,
                    "ZXing: encode and decode barcodes in memory"),
            new Workload("pmd", "bench.Pmd", List.of("5", WORKERS), List.of("20", WORKERS), true,
                    "PMD 7: Java quickstart rules over JDK sources on N threads"),
            new Workload("fop", "bench.Fop", List.of("5"), List.of("30"), false,
                    "FOP: render generated XSL-FO to PDF in memory"),
            new Workload("batik", "bench.Batik", List.of("100", "1"), List.of("300", "4"), false,
                    "Batik: rasterize generated SVG to PNG in memory"),
            new Workload("ejml", "bench.Ejml", List.of("200", "2", WORKERS), List.of("600", "6", WORKERS), true,
                    "EJML: dense matrix products and Cholesky solves on N threads"),
            new Workload("jython", "bench.Jython", List.of("500"), List.of("3000"), false,
                    "Jython 2.7: run a small Python program"),
            // Nothing but synchronization: Reprise's ordering of java.util.concurrent at its most
            // expensive, a capability record/replay tools for Java rarely have.
            new Workload("juc", "bench.JucTasks", List.of("2000", "4"), List.of("20000", "4"), true,
                    "java.util.concurrent: a 4-thread pool runs small tasks over a shared map and atomics",
                    List.of(), false),
            // A server: its requests come from a load generator in another process, which a
            // replay does not start (its report comes from the recording).
            new Workload("http", "bench.HttpServe", List.of("2000", "4"), List.of("20000", "8"), true,
                    "JDK HttpServer on a 4-thread pool, N requests from a load generator process on C connections",
                    List.of(), false));

    /**
     * The reduced set of {@code --quick}: one single-threaded workload whose replays must match and
     * one multi-threaded one, within three minutes on two cores.
     */
    public static final List<String> QUICK = List.of("luindex", "h2");

    public List<String> args(boolean quick) {
        String workers = Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors()));
        return (quick ? quickArgs : fullArgs).stream().map(a -> a.equals(WORKERS) ? workers : a).toList();
    }
}
