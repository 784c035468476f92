package dev.reprise.cli.recording;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import dev.reprise.core.recording.Recording;

/**
 * {@code manifest.json}'s fields, each checked for its type and range: a recording's metadata
 * goes into the replaying JVM's command line and configuration, so a value out of place is
 * refused here, naming the field, rather than failing later somewhere else.
 */
final class ManifestParser {
    private static final Set<String> FIELDS = Set.of("format", "reprise", "jvm", "command", "cwd", "order", "exitStatus",
            "completed", "startedAtMillis", "durationMillis", "threads", "orderedFields", "files");
    /**
     * A thread's creation path, a class initializer's stream ({@code init-} and the class's name,
     * then {@code ~N} for the Nth class of that name a loader defined; the threads it starts
     * follow as {@code .1}, {@code .2}), or a stream of cleanups ({@code cleanup-} and a number).
     */
    private static final Pattern THREAD = Pattern.compile(
            "[0-9]{1,9}(\\.[0-9]{1,9})*|init-[\\p{javaJavaIdentifierPart}.]+(~[0-9]{1,9}(\\.[0-9]{1,9})*)?|cleanup-[0-9]{1,9}");
    /**
     * A field as {@code package/Class.field}, a class's array elements as {@code package/Class.[]},
     * or the identity hashes of its objects as {@code package/Class.#hash}.
     */
    private static final Pattern FIELD = Pattern.compile("(\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*/)*"
            + "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*\\.(\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*|\\[\\]|#hash)");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final Path file;

    private ManifestParser(Path file) {
        this.file = file;
    }

    static Manifest parse(Path file, JsonObject o) throws RecordingException {
        return new ManifestParser(file).manifest(o);
    }

    private Manifest manifest(JsonObject o) throws RecordingException {
        for (String name : o.keySet()) {
            if (!FIELDS.contains(name)) {
                throw bad(name, "not a field of a Reprise manifest");
            }
        }
        Map<String, String> jvm = strings(o, "jvm");
        String version = jvm.get("java.version");
        // A provisional manifest is written before the JVM says what it is (CheckedRecording reads it then).
        boolean provisional = o.has("exitStatus") && o.get("exitStatus").isJsonPrimitive()
                && o.get("exitStatus").getAsJsonPrimitive().isNumber()
                && o.get("exitStatus").getAsString().equals(Integer.toString(Manifest.UNKNOWN_STATUS));
        if (!provisional && (version == null || version.isEmpty())) {
            throw bad("jvm.java.version", "missing");
        }
        List<String> command = list(o, "command");
        if (command.isEmpty()) {
            throw bad("command", "empty");
        }
        String cwd = string(o, "cwd");
        if (!cwd.startsWith("/") || cwd.indexOf('\0') >= 0) {
            throw bad("cwd", "not an absolute path: " + cwd);
        }
        String order = string(o, "order");
        if (!order.equals("rto") && !order.equals("to")) {
            throw bad("order", "neither rto nor to: " + order);
        }
        Map<String, Long> threads = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> t : object(o, "threads").entrySet()) {
            if (!THREAD.matcher(t.getKey()).matches()) {
                throw bad("threads", "not a thread path: " + t.getKey());
            }
            threads.put(t.getKey(), integer("threads." + t.getKey(), t.getValue(), 0, Long.MAX_VALUE));
        }
        List<String> orderedFields = null;
        if (o.has("orderedFields")) {
            orderedFields = list(o, "orderedFields");
            for (String f : orderedFields) {
                if (!FIELD.matcher(f).matches()) {
                    throw bad("orderedFields", "not a field as package/Class.field, package/Class.[] or package/Class.#hash: " + f);
                }
            }
        }
        Map<String, String> files = strings(o, "files");
        for (Map.Entry<String, String> f : files.entrySet()) {
            if (!Recording.SIDE_FILES.contains(f.getKey())) {
                throw bad("files", "not a file of a recording: " + f.getKey());
            }
            if (!SHA256.matcher(f.getValue()).matches()) {
                throw bad("files." + f.getKey(), "not a SHA-256 in hex: " + f.getValue());
            }
        }
        return new Manifest((int) integer("format", required(o, "format"), 0, Integer.MAX_VALUE), string(o, "reprise"),
                jvm, command, cwd, order, (int) integer("exitStatus", required(o, "exitStatus"), Manifest.UNKNOWN_STATUS, 255),
                bool(o, "completed"), integer("startedAtMillis", required(o, "startedAtMillis"), 0, Long.MAX_VALUE),
                integer("durationMillis", required(o, "durationMillis"), 0, Long.MAX_VALUE), threads, orderedFields, files);
    }

    private JsonElement required(JsonObject o, String name) throws RecordingException {
        JsonElement e = o.get(name);
        if (e == null) {
            throw bad(name, "missing");
        }
        if (e.isJsonNull()) {
            throw bad(name, "null");
        }
        return e;
    }

    private String string(JsonObject o, String name) throws RecordingException {
        return string(name, required(o, name));
    }

    private String string(String name, JsonElement e) throws RecordingException {
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw bad(name, "not a string: " + e);
        }
        return e.getAsString();
    }

    private boolean bool(JsonObject o, String name) throws RecordingException {
        JsonElement e = required(o, name);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) {
            throw bad(name, "neither true nor false: " + e);
        }
        return e.getAsBoolean();
    }

    private long integer(String name, JsonElement e, long min, long max) throws RecordingException {
        if (e.isJsonNull()) {
            throw bad(name, "null");
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
            throw bad(name, "not a number: " + e);
        }
        BigDecimal n = e.getAsBigDecimal();
        if (n.scale() != 0) {
            throw bad(name, "not a whole number: " + n);
        }
        if (n.compareTo(BigDecimal.valueOf(min)) < 0 || n.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw bad(name, n + " is out of range (" + min + " to " + max + ")");
        }
        return n.longValueExact();
    }

    private JsonObject object(JsonObject o, String name) throws RecordingException {
        JsonElement e = required(o, name);
        if (!e.isJsonObject()) {
            throw bad(name, "not an object: " + e);
        }
        return e.getAsJsonObject();
    }

    private Map<String, String> strings(JsonObject o, String name) throws RecordingException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> e : object(o, name).entrySet()) {
            out.put(e.getKey(), string(name + "." + e.getKey(), required(object(o, name), e.getKey())));
        }
        return out;
    }

    private List<String> list(JsonObject o, String name) throws RecordingException {
        JsonElement e = required(o, name);
        if (!e.isJsonArray()) {
            throw bad(name, "not a list: " + e);
        }
        JsonArray a = e.getAsJsonArray();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).isJsonNull()) {
                throw bad(name + "[" + i + "]", "null");
            }
            out.add(string(name + "[" + i + "]", a.get(i)));
        }
        return out;
    }

    private RecordingException bad(String field, String what) {
        return new RecordingException(file, "field '" + field + "': " + what);
    }
}
