package dev.reprise.core.config;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's whole configuration, parsed once from the {@code -javaagent} argument. The
 * argument is {@code key=value} pairs joined by {@code &}, values URL-encoded; the {@code reprise}
 * command writes it with {@link #encode()}. {@code classCache} is the directory of instrumented
 * JDK classes kept between runs, or null for none. {@code logRelaxed}, recording only: every relaxed
 * synchronization event is written with its site instead of counted, so that replay checks each.
 * {@code orderedFields}: plain fields, as {@code internal/class/Name.field}, whose accesses are
 * ordered as synchronization actions, like a volatile field's. {@code redactedEnv}, recording
 * only: names of environment variables, {@code *} and {@code ?} globs allowed, whose values are
 * logged as a placeholder. {@code recorder}, recording only: the pid of the {@code reprise record}
 * process, which the program must not outlive; 0 for none. {@code watchRaces}, recording only: the
 * run looks for plain fields its threads race on, and lists them at its end.
 */
public record AgentConfig(Mode mode, Path dir, Order order, boolean logRelaxed, Long chaosSeed, int recordedStatus,
                          boolean recordingComplete, Path classCache, List<String> orderedFields,
                          List<String> redactedEnv, long recorder, boolean watchRaces) {
    public AgentConfig(Mode mode, Path dir, Order order, boolean logRelaxed, Long chaosSeed, int recordedStatus,
                       boolean recordingComplete, Path classCache, List<String> orderedFields, List<String> redactedEnv, long recorder) {
        this(mode, dir, order, logRelaxed, chaosSeed, recordedStatus, recordingComplete, classCache, orderedFields, redactedEnv,
                recorder, false);
    }

    /** Between the names of {@link #redactedEnv}: no variable's name can hold it. */
    private static final String NAME_SEPARATOR = "\0";

    public static AgentConfig parse(String arg) {
        Map<String, String> kv = new LinkedHashMap<>();
        if (arg != null && !arg.isEmpty()) {
            for (String pair : arg.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("malformed agent option: " + pair);
                }
                kv.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        String mode = require(kv, "mode");
        String chaos = kv.get("chaos");
        String cache = kv.get("cache");
        String fields = kv.getOrDefault("fields", "");
        String redacted = kv.getOrDefault("redact", "");
        return new AgentConfig(
                Mode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)),
                Path.of(require(kv, "dir")),
                Order.valueOf(kv.getOrDefault("order", "rto").toUpperCase(java.util.Locale.ROOT)),
                Boolean.parseBoolean(kv.getOrDefault("relaxed", "false")),
                chaos == null ? null : Long.parseLong(chaos),
                Integer.parseInt(kv.getOrDefault("status", "0")),
                Boolean.parseBoolean(kv.getOrDefault("complete", "true")),
                cache == null ? null : Path.of(cache),
                fields.isEmpty() ? List.of() : List.of(fields.split(",")),
                redacted.isEmpty() ? List.of() : List.of(redacted.split(NAME_SEPARATOR)),
                Long.parseLong(kv.getOrDefault("recorder", "0")),
                Boolean.parseBoolean(kv.getOrDefault("races", "false")));
    }

    public String encode() {
        StringBuilder sb = new StringBuilder();
        sb.append("mode=").append(mode.name().toLowerCase(java.util.Locale.ROOT));
        sb.append("&dir=").append(URLEncoder.encode(dir.toString(), StandardCharsets.UTF_8));
        sb.append("&order=").append(order.name().toLowerCase(java.util.Locale.ROOT));
        if (logRelaxed) {
            sb.append("&relaxed=true");
        }
        if (chaosSeed != null) {
            sb.append("&chaos=").append(chaosSeed);
        }
        sb.append("&status=").append(recordedStatus);
        sb.append("&complete=").append(recordingComplete);
        if (classCache != null) {
            sb.append("&cache=").append(URLEncoder.encode(classCache.toString(), StandardCharsets.UTF_8));
        }
        if (!orderedFields.isEmpty()) {
            sb.append("&fields=").append(URLEncoder.encode(String.join(",", orderedFields), StandardCharsets.UTF_8));
        }
        if (!redactedEnv.isEmpty()) {
            sb.append("&redact=").append(URLEncoder.encode(String.join(NAME_SEPARATOR, redactedEnv), StandardCharsets.UTF_8));
        }
        if (recorder != 0) {
            sb.append("&recorder=").append(recorder);
        }
        if (watchRaces) {
            sb.append("&races=true");
        }
        return sb.toString();
    }

    private static String require(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("agent option '" + key + "' missing");
        }
        return v;
    }
}
