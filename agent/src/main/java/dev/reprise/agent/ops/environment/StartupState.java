package dev.reprise.agent.ops.environment;

import java.lang.reflect.Field;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.ordering.ThreadRandoms;

/**
 * What the JVM fixed before the program's first line: system properties (user.dir, user.name,
 * java.io.tmpdir and every other), the system's time zone ({@link SystemZone}), the default
 * locale, and the seeds of the JDK's generators that were seeded from the clock at class
 * initialization. Recorded as the first events of the main thread; a replay installs them before
 * the program starts, so reading them costs the program nothing per call.
 */
public final class StartupState {
    private static final Op PROPERTIES = Op.named("startup.properties");
    private static final Op ZONE = Op.named("startup.zone");
    private static final Op LOCALE = Op.named("startup.locale");
    private static final Op SEEDS = Op.named("startup.seeds");

    /** Static generator state: class and field, each an AtomicLong or AtomicInteger. */
    private static final String[][] SEED_FIELDS = {
        {"java.util.Random", "seedUniquifier"},
        {"java.util.concurrent.ThreadLocalRandom", "seeder"},
        {"java.util.concurrent.ThreadLocalRandom", "probeGenerator"},
        {"java.util.SplittableRandom", "defaultGen"},
    };

    private StartupState() {
    }

    public static void capture() throws Throwable {
        properties();
        zone();
        locale();
        seeds();
    }

    private static void properties() {
        Rt.claim();
        Properties live = System.getProperties();
        Ev ev = Ev.begin(PROPERTIES, 0, 0);
        try {
            TreeSet<String> names = new TreeSet<>(live.stringPropertyNames());
            int n = ev.i(names.size());
            // Both roles install a table built alike, in name order: the program's property
            // lookups then walk the same internal structure, whose volatile reads are ordered.
            Properties installed = new Properties();
            // Not a conditional: javac 21+ types one over these two as a SequencedCollection,
            // which JDK 17 lacks (the agent is compiled without --release, see its pom).
            java.util.Collection<String> keys = names;
            if (!ev.live()) {
                keys = java.util.Collections.nCopies(n, null);
            }
            for (String k : keys) {
                String name = ev.s(k);
                installed.setProperty(name, ev.s(ev.live() ? live.getProperty(k) : null));
            }
            System.setProperties(installed);
            // A default zone the JVM or Reprise computed before is forgotten: the program's first
            // use computes it, from its own user.timezone or the recorded system zone (SystemZone).
            TimeZone.setDefault(null);
            if (!ev.live()) {
                JdkFiles.recordedHome(installed.getProperty("java.home"));
            }
        } finally {
            ev.end();
        }
    }

    private static void zone() throws Throwable {
        Rt.claim();
        Ev ev = Ev.begin(ZONE, 0, 0);
        try {
            SystemZone.code(ev);
        } finally {
            ev.end();
        }
    }

    private static void locale() {
        Rt.claim();
        Ev ev = Ev.begin(LOCALE, 0, 0);
        try {
            String all = ev.s(Locale.getDefault().toLanguageTag());
            String display = ev.s(Locale.getDefault(Locale.Category.DISPLAY).toLanguageTag());
            String format = ev.s(Locale.getDefault(Locale.Category.FORMAT).toLanguageTag());
            if (!ev.live()) {
                Locale.setDefault(Locale.forLanguageTag(all));
                Locale.setDefault(Locale.Category.DISPLAY, Locale.forLanguageTag(display));
                Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag(format));
            }
        } finally {
            ev.end();
        }
    }

    private static void seeds() throws Exception {
        Rt.claim();
        Ev ev = Ev.begin(SEEDS, 0, 0);
        try {
            for (String[] f : SEED_FIELDS) {
                Field field = Class.forName(f[0], true, null).getDeclaredField(f[1]);
                field.setAccessible(true);
                Object cell = field.get(null);
                if (cell instanceof AtomicLong a) {
                    a.set(ev.j(a.get()));
                } else {
                    AtomicInteger a = (AtomicInteger) cell;
                    a.set(ev.i(a.get()));
                }
            }
            long threadsBase = ev.j(ev.live() ? System.nanoTime() : 0);
            ThreadRandoms.code(ev); // main's own state, if the JVM used it during start-up
            ThreadRandoms.seed(threadsBase, Rt.threadPath());
        } finally {
            ev.end();
        }
    }
}
