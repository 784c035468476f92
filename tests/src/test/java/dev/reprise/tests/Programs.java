package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import javax.tools.ToolProvider;

/**
 * Builds a one-class program into a jar: lets a test record one version of a program and replay
 * another, as when a program is rebuilt between recording and replay.
 */
final class Programs {
    private Programs() {
    }

    /**
     * Compiles {@code body}, the statements of {@code app.Main.main}, and writes {@code jar} with the
     * class (sources and classes are left beside it).
     */
    static void buildMain(Path jar, String body) throws IOException {
        String source = "package app;\npublic final class Main {\n    public static void main(String[] args) {\n        "
                + body + "\n    }\n}\n";
        Path work = Files.createDirectories(jar.resolveSibling(jar.getFileName() + ".build"));
        Path src = Files.createDirectories(work.resolve("app")).resolve("Main.java");
        Files.writeString(src, source);
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", work.toString(), src.toString());
        assertEquals(0, status, "compiling " + src);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("app/Main.class"));
            Files.copy(work.resolve("app/Main.class"), out);
            out.closeEntry();
        }
    }

    /** The java command that runs {@code app.Main} from {@code jar}. */
    static List<String> command(Path jar) {
        return List.of(Reprise.JAVA, "-cp", jar.toString(), "app.Main");
    }
}
