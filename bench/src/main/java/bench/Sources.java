package bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Text inputs for the workloads: the first {@code n} Java sources of the JDK's own {@code lib/src.zip}
 * in name order, real and fixed for a given JDK. A JDK without sources gets generated Java-like text
 * from a fixed seed instead; nothing is downloaded.
 */
public final class Sources {
    private Sources() {
    }

    /** Path to text, in a fixed order. */
    public static Map<String, String> javaFiles(int n) throws IOException {
        Path zip = Path.of(System.getProperty("java.home"), "lib", "src.zip");
        return Files.isRegularFile(zip) ? fromZip(zip, n) : generated(n);
    }

    private static Map<String, String> fromZip(Path zip, int n) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(zip.toFile())) {
            List<String> names = new ArrayList<>();
            z.stream().map(ZipEntry::getName).filter(s -> s.endsWith(".java") && !s.endsWith("module-info.java")
                    && !s.endsWith("package-info.java")).forEach(names::add);
            Collections.sort(names);
            for (String name : names.subList(0, Math.min(n, names.size()))) {
                try (InputStream in = z.getInputStream(z.getEntry(name))) {
                    out.put(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    private static final String[] WORDS = {"value", "index", "buffer", "stream", "count", "result", "node",
        "entry", "offset", "length", "reader", "writer", "table", "lock", "state", "parse", "format", "token"};

    private static Map<String, String> generated(int n) {
        SplittableRandom r = new SplittableRandom(42);
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String cls = "Gen" + i;
            StringBuilder sb = new StringBuilder("package gen;\n\n/** Generated class " + i + ". */\npublic class " + cls + " {\n");
            for (int m = 0; m < 20; m++) {
                String a = WORDS[r.nextInt(WORDS.length)];
                String b = WORDS[r.nextInt(WORDS.length)];
                sb.append("    /** Returns the ").append(a).append(" of the ").append(b).append(". */\n")
                  .append("    public int ").append(a).append(m).append("(int ").append(b).append(") {\n")
                  .append("        int x = ").append(b).append(" * ").append(r.nextInt(100)).append(";\n")
                  .append("        if (x > ").append(r.nextInt(1000)).append(") {\n            return x - ")
                  .append(m).append(";\n        }\n        return x;\n    }\n\n");
            }
            out.put("gen/" + cls + ".java", sb.append("}\n").toString());
        }
        return out;
    }
}
