package dev.reprise.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.reprise.core.config.OwnJvmOptions;

/**
 * The program's command line, {@code java [JVM options] (-cp CP MAIN | -jar JAR | -m MODULE) [ARGS]},
 * and the same line with Reprise's agent added. The agent's flags go right after the
 * executable, so the user's own options and arguments are passed exactly as typed, and a JVM
 * option the user gives wins over Reprise's (the JVM takes the last of a repeated flag).
 */
final class JavaCommand {
    /** The agent jar's file name, as its manifest's {@code Boot-Class-Path} gives it. */
    private static final String AGENT_JAR_NAME = "reprise-agent.jar";

    /** JVM options whose value is the next word. */
    private static final Set<String> WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p", "--module-path",
            "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-opens", "--add-exports", "--add-reads",
            "--patch-module", "--enable-native-access");

    private final List<String> words;
    /** Where the JVM options end: the index of the main class, {@code -jar} or {@code -m}. */
    private final int optionsEnd;

    private JavaCommand(List<String> words, int optionsEnd) {
        this.words = List.copyOf(words);
        this.optionsEnd = optionsEnd;
    }

    /** Checks the shape of the command; throws {@link IllegalArgumentException} with a usage message. */
    static JavaCommand parse(List<String> words) {
        if (words == null || words.isEmpty()) {
            throw new IllegalArgumentException("no command given: put the java command after --");
        }
        String exe = words.get(0);
        String name = Path.of(exe).getFileName().toString();
        if (!name.equals("java")) {
            throw new IllegalArgumentException("the command must start with java (or a path to a java executable), not '" + exe + "'");
        }
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("-jar") || w.equals("-m") || w.equals("--module")) {
                if (i + 1 >= words.size()) {
                    throw new IllegalArgumentException(w + " needs a value");
                }
                return new JavaCommand(words, i);
            }
            if (WITH_VALUE.contains(w)) {
                i++;
            } else if (!w.startsWith("-") && !w.startsWith("@")) { // @FILE: options the launcher reads from FILE
                return new JavaCommand(words, i); // the main class
            }
        }
        throw new IllegalArgumentException("no main class, -jar or -m in the java command");
    }

    List<String> words() {
        return words;
    }

    /** Whether the JVM option {@code option} takes the next word as its value. */
    static boolean takesValue(String option) {
        return WITH_VALUE.contains(option);
    }

    /** What names the program to run: its main class, or {@code -jar JAR} or {@code -m MODULE}. */
    String mainWords() {
        String w = words.get(optionsEnd);
        return w.startsWith("-") ? w + " " + words.get(optionsEnd + 1) : w;
    }

    /** The JVM options, class path included, between the executable and the main class. */
    List<String> jvmOptions() {
        return words.subList(1, optionsEnd);
    }

    /** The same command with {@code jvmOptions} in place of its JVM options. */
    JavaCommand withJvmOptions(List<String> jvmOptions) {
        List<String> out = new ArrayList<>();
        out.add(words.get(0));
        out.addAll(jvmOptions);
        out.addAll(words.subList(optionsEnd, words.size()));
        return new JavaCommand(out, 1 + jvmOptions.size());
    }

    /**
     * The command with the agent added, running {@code java} from {@code javaExe}. The agent's
     * jar reaches the boot class path through its manifest's {@code Boot-Class-Path}, not
     * {@code -Xbootclasspath/a}, which would keep a JDK 17 JVM from mapping its archived module
     * graph (docs/recording.md). A native agent
     * among {@code extraJvmOptions} ({@code -agentlib:jdwp} for {@code replay --debug}) goes
     * before Reprise's: the JVM starts agents in command-line order, and what a native agent does
     * as it starts (JDWP makes its threads' {@code Thread} objects on the main thread) must happen
     * before Reprise's premain makes the main thread a recorded one.
     */
    List<String> withAgent(String javaExe, Path agentJar, String agentOptions, List<String> extraJvmOptions) {
        List<String> out = new ArrayList<>();
        out.add(javaExe);
        extraJvmOptions.stream().filter(JavaCommand::nativeAgent).forEach(out::add);
        if (!agentJar.getFileName().toString().equals(AGENT_JAR_NAME)) {
            out.add("-Xbootclasspath/a:" + agentJar); // a renamed copy, which the jar's manifest does not name
        }
        out.add((javaInstrumentResolved() ? "-agentlib:instrument=" : "-javaagent:") + agentJar + "=" + agentOptions);
        out.add(OwnJvmOptions.METASPACE_ROOM);
        extraJvmOptions.stream().filter(o -> !nativeAgent(o)).forEach(out::add);
        out.addAll(words.subList(1, words.size()));
        return out;
    }

    /**
     * Whether the JVM resolves {@code java.instrument} unasked, as it does for a program on the
     * class path: then the agent is started as the library behind {@code -javaagent}, without that
     * option's implied {@code --add-modules}, which costs JDK 17 its archived module graph too.
     */
    private boolean javaInstrumentResolved() {
        for (String w : words.subList(1, optionsEnd + 1)) {
            if (w.equals("-m") || w.equals("--module") || w.startsWith("--module=") || w.equals("--limit-modules")
                    || w.startsWith("--limit-modules=")) {
                return false;
            }
        }
        return true;
    }

    private static boolean nativeAgent(String option) {
        return option.startsWith("-agentlib:") || option.startsWith("-agentpath:");
    }

    static Path agentJar() {
        String p = System.getProperty("reprise.agent");
        if (p == null || !Files.isRegularFile(Path.of(p))) {
            throw new IllegalStateException("agent jar not found (reprise.agent=" + p + "); run reprise through its launcher");
        }
        return Path.of(p).toAbsolutePath();
    }
}
