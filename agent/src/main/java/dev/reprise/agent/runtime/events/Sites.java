package dev.reprise.agent.runtime.events;

import dev.reprise.agent.runtime.jdk.HiddenClassNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Call sites of rewritten invocations, named {@code class.method:line}. A site's id is a hash of
 * its name, so record and replay agree on it without a shared table; 14 bits keep it to two bytes
 * in the log, at the price of missing one site mismatch in 16384. Replay names both sides of a
 * divergence from its own table, built from the same code; an id that several sites share is
 * named by all of them, since the table cannot tell which one ran. Rewritten code pushes an id with
 * {@code SIPUSH}, which holds it: an {@code LDC} would add a constant-pool entry per site, and
 * redefining a loaded class searches the old pool for every entry added.
 */
public final class Sites {
    /** Per id, the names of the sites registered with it, in the order registered. */
    private static final Map<Integer, List<String>> NAMES = new HashMap<>();
    /** How many names of a shared id a message lists before counting the rest. */
    private static final int NAMED = 3;
    /** Per thread, while it instruments a class: the names registered, for the class cache. */
    private static final ThreadLocal<List<String>> CAPTURE = new ThreadLocal<>();

    private Sites() {
    }

    public static int register(String owner, String method, int line) {
        String name = stableOwner(owner).replace('/', '.') + "." + method + ":" + line;
        List<String> capture = CAPTURE.get();
        if (capture != null) {
            capture.add(name);
        }
        return registerName(name);
    }

    /**
     * A lambda's class without the count JDK 17 puts in its name ({@code Host$$Lambda$12}), which
     * the JDK's and Reprise's own lambdas advance differently in a recording and its replays: the
     * site's id is its name's hash.
     */
    private static String stableOwner(String owner) {
        return owner.contains("$$Lambda") ? HiddenClassNames.stem(owner) : owner;
    }

    /**
     * Whether this run keeps sites' names. Only a replay names sites (in its divergence reports),
     * so a recording keeps none: a class-heavy program registers tens of thousands, a megabyte
     * kept to the end. The session exists before any class is instrumented; without one (a unit
     * test) names are kept.
     */
    public static boolean keepsNames() {
        Session session = Session.current();
        return session == null || session.replaying();
    }

    /** Registers a site by its full name (a cached class's sites); returns its id. */
    public static int registerName(String name) {
        int id = (name.hashCode() & 0x3FFF) + 1;
        if (!keepsNames()) {
            return id;
        }
        synchronized (NAMES) {
            List<String> names = NAMES.get(id);
            if (names == null) {
                names = new ArrayList<>(1);
                NAMES.put(id, names);
            }
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return id;
    }

    /**
     * Collects into {@code into} the names the current thread registers until
     * {@link #endCapture} restores {@code prior}, what this returned (a class may be instrumented
     * while another is).
     */
    public static List<String> capture(List<String> into) {
        List<String> prior = CAPTURE.get();
        CAPTURE.set(into);
        return prior;
    }

    public static void endCapture(List<String> prior) {
        CAPTURE.set(prior);
    }

    static String nameOf(int id) {
        if (id == 0) {
            return "(no call site)";
        }
        synchronized (NAMES) {
            List<String> names = NAMES.get(id);
            if (names == null) {
                return "site #" + id;
            }
            String shown = String.join(" or ", names.subList(0, Math.min(names.size(), NAMED)));
            return names.size() <= NAMED ? shown : shown + " (or " + (names.size() - NAMED) + " other sites)";
        }
    }
}
