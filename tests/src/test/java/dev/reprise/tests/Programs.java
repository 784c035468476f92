package dev.reprise.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.ToolProvider;

/**
 * Builds programs into jars at test time: a one-class program, to record one version of it and
 * replay another (as when a program is rebuilt between recording and replay), and jars of several
 * classes, signed if need be.
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
        Path classes = compile(jar.resolveSibling(jar.getFileName() + ".build"), Map.of("app/Main.java", source));
        jar(jar, classes, "app");
    }

    /**
     * Compiles {@code sources} (path in the source tree to text) in {@code work}, against the
     * classes already there; returns the directory of the classes.
     */
    static Path compile(Path work, Map<String, String> sources) throws IOException {
        List<String> args = new ArrayList<>(List.of("-d", work.toString(), "-cp", work.toString()));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path src = work.resolve(e.getKey());
            Files.createDirectories(src.getParent());
            Files.writeString(src, e.getValue());
            args.add(src.toString());
        }
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(new String[0]));
        assertEquals(0, status, "compiling " + sources.keySet());
        return work;
    }

    /** Writes the classes of package {@code pkg} (a directory of {@code classes}) into {@code jar}. */
    static void jar(Path jar, Path classes, String pkg) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.list(classes.resolve(pkg))) {
            for (Path c : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                out.putNextEntry(new JarEntry(pkg + "/" + c.getFileName()));
                Files.copy(c, out);
                out.closeEntry();
            }
        }
    }

    /** Gives {@code jar} a manifest with the main attribute {@code attribute} ("Name: value"). */
    static void manifest(Path jar, String attribute) throws IOException {
        try (java.nio.file.FileSystem fs = java.nio.file.FileSystems.newFileSystem(jar)) {
            Files.createDirectories(fs.getPath("META-INF"));
            Files.writeString(fs.getPath("META-INF/MANIFEST.MF"), "Manifest-Version: 1.0\n" + attribute + "\n");
        }
    }

    /** Signs {@code jar} in place with a new self-signed key, as the JDK's keytool and jarsigner do. */
    static void sign(Path jar) {
        Path bin = Path.of(Reprise.JAVA).getParent();
        Path store = jar.resolveSibling(jar.getFileName() + ".keys");
        List<String> storeArgs = List.of("-keystore", store.toString(), "-storepass", "reprise");
        List<String> keytool = new ArrayList<>(List.of(bin.resolve("keytool").toString(), "-genkeypair", "-alias", "signer",
                "-keyalg", "EC", "-dname", "CN=reprise", "-validity", "2", "-keypass", "reprise"));
        keytool.addAll(storeArgs);
        List<String> jarsigner = new ArrayList<>(List.of(bin.resolve("jarsigner").toString()));
        jarsigner.addAll(storeArgs);
        jarsigner.addAll(List.of(jar.toString(), "signer"));
        for (List<String> cmd : List.of(keytool, jarsigner)) {
            Run run = Reprise.exec(cmd, null, Map.of(), null);
            assertEquals(0, run.status(), run::toString);
        }
    }

    /** The java command that runs {@code app.Main} from {@code jar}. */
    static List<String> command(Path jar) {
        return List.of(Reprise.JAVA, "-cp", jar.toString(), "app.Main");
    }
}
