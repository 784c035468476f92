package dev.reprise.agent.instrument.cache;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which already loaded JDK classes start-up must retransform ({@link ClassCache#quietVerdicts}),
 * as found by reading this JDK's class files: after a seal ({@link SealedFile}), a line each, the
 * verdict ('1' or '0'), a space and the name.
 */
final class QuietVerdictsFile {
    private static final int MAGIC = 0x52505143;

    private QuietVerdictsFile() {
    }

    /** The verdicts {@link #write} wrote, or none if the file is missing or damaged. */
    static Map<String, Boolean> read(File file) {
        Map<String, Boolean> known = new HashMap<>();
        try (FileInputStream in = new FileInputStream(file)) {
            byte[] raw = in.readAllBytes();
            if (!SealedFile.sealed(raw, MAGIC)) {
                return known; // written partly or damaged: start again
            }
            for (String line : new String(raw, 8, raw.length - 8, StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty()) {
                    known.put(line.substring(2), line.charAt(0) == '1');
                }
            }
        } catch (IOException | RuntimeException e) {
            known.clear();
        }
        return known;
    }

    static void write(File file, Map<String, Boolean> verdicts) throws IOException {
        StringBuilder sb = new StringBuilder("\0".repeat(8)); // the seal
        for (Map.Entry<String, Boolean> e : new TreeMap<>(verdicts).entrySet()) {
            sb.append(e.getValue() ? '1' : '0').append(' ').append(e.getKey()).append('\n');
        }
        SealedFile.replace(file, SealedFile.seal(sb.toString().getBytes(StandardCharsets.UTF_8), MAGIC));
    }
}
