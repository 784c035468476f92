package dev.reprise.cli.recording;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

/**
 * JSON as RFC 8259 has it and nothing more: no unquoted names or values, no comments, no
 * repeated names in an object, nothing after the value. Gson's own tree parser is lenient
 * whatever it is asked, so this reads the tokens itself. Numbers are {@link BigDecimal}s as
 * written.
 */
final class StrictJson {
    private StrictJson() {
    }

    /** The value {@code text} holds; {@link IOException} with Gson's description (line, column) if it is not JSON. */
    static JsonElement parse(String text) throws IOException {
        JsonReader in = new JsonReader(new StringReader(text));
        in.setStrictness(Strictness.STRICT);
        try {
            JsonElement value = read(in);
            if (in.peek() != JsonToken.END_DOCUMENT) {
                throw new IOException("more after the value at " + location(in));
            }
            return value;
        } catch (IOException e) {
            throw new IOException(plain(e.getMessage()));
        }
    }

    /** Gson's message without its advice to be lenient, its link, and its JSON path. */
    private static String plain(String message) {
        String first = message == null ? "malformed JSON" : message.lines().findFirst().orElse("malformed JSON");
        first = first.replace("Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON", "malformed JSON");
        int path = first.indexOf(" path ");
        return path > 0 ? first.substring(0, path) : first;
    }

    private static JsonElement read(JsonReader in) throws IOException {
        switch (in.peek()) {
            case BEGIN_OBJECT -> {
                JsonObject o = new JsonObject();
                in.beginObject();
                while (in.hasNext()) {
                    String name = in.nextName();
                    if (o.has(name)) {
                        throw new IOException("'" + name + "' twice in one object at " + location(in));
                    }
                    o.add(name, read(in));
                }
                in.endObject();
                return o;
            }
            case BEGIN_ARRAY -> {
                JsonArray a = new JsonArray();
                in.beginArray();
                while (in.hasNext()) {
                    a.add(read(in));
                }
                in.endArray();
                return a;
            }
            case STRING -> {
                return new JsonPrimitive(in.nextString());
            }
            case NUMBER -> {
                return new JsonPrimitive(new BigDecimal(in.nextString())); // its scale tells 1 from 1.0 and 1e0
            }
            case BOOLEAN -> {
                return new JsonPrimitive(in.nextBoolean());
            }
            case NULL -> {
                in.nextNull();
                return JsonNull.INSTANCE;
            }
            default -> throw new IOException("a value expected at " + location(in));
        }
    }

    /** "line L column C", from Gson's "... at line L column C path $.x". */
    private static String location(JsonReader in) {
        String s = in.toString();
        int at = s.indexOf(" at line ");
        int path = s.indexOf(" path ");
        return at >= 0 ? s.substring(at + 4, path > at ? path : s.length()) : s;
    }
}
