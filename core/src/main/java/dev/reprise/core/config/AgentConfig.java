package dev.reprise.core.config;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's whole configuration, made by {@link #record} or {@link #replay} and the builder's
 * options, and passed as the {@code -javaagent} argument: {@link #encode()} writes it as
 * {@code key=value} pairs joined by {@code &}, values URL-encoded, and {@link #parse} reads it
 * back, each option under the one key named below. {@code classCache} is the directory of
 * instrumented classes kept between runs, or null for none; {@code jdkClassCache} the one of the
 * JDK's classes, which the program's ordered fields leave as they are (the same unless some of
 * those fields are the JDK's, or the run looks for races). {@code logRelaxed}, recording only:
 * every relaxed synchronization event is written with its site instead of counted, so that replay
 * checks each. {@code orderedFields}: plain fields, as {@code internal/class/Name.field}, whose
 * accesses are ordered as synchronization actions, like a volatile field's. {@code redactedEnv},
 * recording only: names of environment variables, {@code *} and {@code ?} globs allowed, whose
 * values are logged as a placeholder. {@code recorder}, recording only: the pid of the
 * {@code reprise record} process, which the program must not outlive; 0 for none.
 * {@code watchRaces}, recording only: the run looks for plain fields its threads race on, and
 * lists them at its end. {@code recordedStatus}, replay only: the recorded run's exit status, which the manifest holds
 * and a replay of a recording that ends before the program does exits with.
 */
public final class AgentConfig {
    /** Still spelled {@code mode}, as agent builds from before {@link Role} read it: scripts/compare-agents runs them with this CLI. */
    private static final String ROLE = "mode";
    private static final String DIR = "dir";
    private static final String ORDER = "order";
    private static final String RELAXED = "relaxed";
    private static final String CHAOS = "chaos";
    private static final String STATUS = "status";
    private static final String CACHE = "cache";
    private static final String JDK_CACHE = "jdkcache";
    private static final String FIELDS = "fields";
    private static final String REDACT = "redact";
    private static final String RECORDER = "recorder";
    private static final String RACES = "races";
    private static final String STOP = "stop";
    /** Between the names of {@link #redactedEnv}: no variable's name can hold it. */
    private static final String NAME_SEPARATOR = "\0";

    private final Role role;
    private final Path dir;
    private final Order order;
    private final boolean logRelaxed;
    private final Long chaosSeed;
    private final int recordedStatus;
    private final Path classCache;
    private final Path jdkClassCache;
    private final List<String> orderedFields;
    private final List<String> redactedEnv;
    private final long recorder;
    private final boolean watchRaces;
    private final String stopAt;

    private AgentConfig(Builder b) {
        this.role = b.role;
        this.dir = b.dir;
        this.order = b.order;
        this.logRelaxed = b.logRelaxed;
        this.chaosSeed = b.chaosSeed;
        this.recordedStatus = b.recordedStatus;
        this.classCache = b.classCache;
        this.jdkClassCache = b.jdkClassCache != null ? b.jdkClassCache : b.classCache;
        this.orderedFields = b.orderedFields;
        this.redactedEnv = b.redactedEnv;
        this.recorder = b.recorder;
        this.watchRaces = b.watchRaces;
        this.stopAt = b.stopAt;
    }

    /** A recording into {@code dir}. */
    public static Builder record(Path dir) {
        return new Builder(Role.RECORD, dir);
    }

    /** A replay of the recording in {@code dir}, whose run exited with {@code recordedStatus}. */
    public static Builder replay(Path dir, int recordedStatus) {
        Builder b = new Builder(Role.REPLAY, dir);
        b.recordedStatus = recordedStatus;
        return b;
    }

    /** The options besides role and directory, each defaulting to none (the order to RTO). */
    public static final class Builder {
        private final Role role;
        private final Path dir;
        private Order order = Order.RTO;
        private boolean logRelaxed;
        private Long chaosSeed;
        private int recordedStatus;
        private Path classCache;
        private Path jdkClassCache;
        private List<String> orderedFields = List.of();
        private List<String> redactedEnv = List.of();
        private long recorder;
        private boolean watchRaces;
        private String stopAt;

        private Builder(Role role, Path dir) {
            this.role = role;
            this.dir = dir;
        }

        public Builder order(Order order) {
            this.order = order;
            return this;
        }

        public Builder logRelaxed(boolean logRelaxed) {
            this.logRelaxed = logRelaxed;
            return this;
        }

        /** Null for no chaos. */
        public Builder chaos(Long seed) {
            this.chaosSeed = seed;
            return this;
        }

        public Builder classCache(Path classCache) {
            this.classCache = classCache;
            return this;
        }

        /** Null: the JDK's classes are kept in {@link #classCache}'s directory. */
        public Builder jdkClassCache(Path jdkClassCache) {
            this.jdkClassCache = jdkClassCache;
            return this;
        }

        public Builder orderedFields(List<String> fields) {
            this.orderedFields = List.copyOf(fields);
            return this;
        }

        public Builder redactedEnv(List<String> names) {
            this.redactedEnv = List.copyOf(names);
            return this;
        }

        public Builder recorder(long pid) {
            this.recorder = pid;
            return this;
        }

        public Builder watchRaces(boolean watch) {
            this.watchRaces = watch;
            return this;
        }

        /**
         * Replay under a debugger: where the replay stops for it, {@code PATH:EVENT} (before that
         * thread's event) or {@code exit}; null for nowhere.
         */
        public Builder stopAt(String where) {
            this.stopAt = where;
            return this;
        }

        public AgentConfig build() {
            return new AgentConfig(this);
        }
    }

    public Role role() {
        return role;
    }

    public Path dir() {
        return dir;
    }

    public Order order() {
        return order;
    }

    public boolean logRelaxed() {
        return logRelaxed;
    }

    public Long chaosSeed() {
        return chaosSeed;
    }

    public int recordedStatus() {
        return recordedStatus;
    }

    public Path classCache() {
        return classCache;
    }

    /** The directory of the JDK's instrumented classes: {@link #classCache}'s unless set apart. */
    public Path jdkClassCache() {
        return jdkClassCache;
    }

    public List<String> orderedFields() {
        return orderedFields;
    }

    public List<String> redactedEnv() {
        return redactedEnv;
    }

    public long recorder() {
        return recorder;
    }

    public boolean watchRaces() {
        return watchRaces;
    }

    /** See {@link Builder#stopAt}. */
    public String stopAt() {
        return stopAt;
    }

    /** The text {@link #encode()} wrote; throws {@link IllegalArgumentException} saying what is wrong. */
    public static AgentConfig parse(String arg) {
        Map<String, String> kv = new HashMap<>();
        if (arg != null && !arg.isEmpty()) {
            for (String pair : arg.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("malformed agent option: " + pair);
                }
                kv.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        Builder b = new Builder(Role.valueOf(require(kv, ROLE).toUpperCase(Locale.ROOT)), Path.of(require(kv, DIR)));
        b.order(Order.valueOf(kv.getOrDefault(ORDER, "rto").toUpperCase(Locale.ROOT)));
        b.logRelaxed(Boolean.parseBoolean(kv.get(RELAXED)));
        String chaos = kv.get(CHAOS);
        b.chaos(chaos == null ? null : Long.parseLong(chaos));
        b.recordedStatus = Integer.parseInt(kv.getOrDefault(STATUS, "0"));
        String cache = kv.get(CACHE);
        b.classCache(cache == null ? null : Path.of(cache));
        String jdkCache = kv.get(JDK_CACHE);
        b.jdkClassCache(jdkCache == null ? null : Path.of(jdkCache));
        String fields = kv.getOrDefault(FIELDS, "");
        b.orderedFields(fields.isEmpty() ? List.of() : List.of(fields.split(",")));
        String redacted = kv.getOrDefault(REDACT, "");
        b.redactedEnv(redacted.isEmpty() ? List.of() : List.of(redacted.split(NAME_SEPARATOR)));
        b.recorder(Long.parseLong(kv.getOrDefault(RECORDER, "0")));
        b.watchRaces(Boolean.parseBoolean(kv.get(RACES)));
        b.stopAt(kv.get(STOP));
        return b.build();
    }

    private static String require(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("agent option '" + key + "' missing");
        }
        return v;
    }

    public String encode() {
        StringBuilder sb = new StringBuilder();
        sb.append(ROLE).append('=').append(role.name().toLowerCase(Locale.ROOT));
        append(sb, DIR, dir.toString());
        append(sb, ORDER, order.name().toLowerCase(Locale.ROOT));
        if (logRelaxed) {
            append(sb, RELAXED, "true");
        }
        if (chaosSeed != null) {
            append(sb, CHAOS, chaosSeed.toString());
        }
        if (role == Role.REPLAY) {
            append(sb, STATUS, Integer.toString(recordedStatus));
        }
        if (classCache != null) {
            append(sb, CACHE, classCache.toString());
        }
        if (jdkClassCache != null && !jdkClassCache.equals(classCache)) {
            append(sb, JDK_CACHE, jdkClassCache.toString());
        }
        if (!orderedFields.isEmpty()) {
            append(sb, FIELDS, String.join(",", orderedFields));
        }
        if (!redactedEnv.isEmpty()) {
            append(sb, REDACT, String.join(NAME_SEPARATOR, redactedEnv));
        }
        if (recorder != 0) {
            append(sb, RECORDER, Long.toString(recorder));
        }
        if (watchRaces) {
            append(sb, RACES, "true");
        }
        if (stopAt != null) {
            append(sb, STOP, stopAt);
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, String key, String value) {
        sb.append('&').append(key).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    }
}
