package dev.reprise.tests;

import java.nio.file.Path;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** Reads JSON as a user's script would: {@code manifest.json} and {@code inspect --json} output. */
final class Json {
    private Json() {
    }

    static JsonObject parse(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    static JsonObject manifest(Path recording) {
        return parse(Reprise.read(recording.resolve("manifest.json")));
    }
}
