package dev.reprise.cli.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads {@code conformance/programs.tsv}: one program a line, tab-separated name, kind, quick
 * ({@code yes}/{@code no}) and command; {@code #} starts a comment line.
 */
public final class ProgramList {
    public static final String FILE = "programs.tsv";

    private ProgramList() {
    }

    public static List<Program> read(Path suite) throws IOException {
        Path file = suite.resolve(FILE);
        List<Program> out = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 4 || !(f[2].equals("yes") || f[2].equals("no"))) {
                throw new IOException(file + ":" + n + ": expected name, kind, yes|no and a command, tab-separated");
            }
            out.add(new Program(f[0], f[1], f[2].equals("yes"), Arrays.asList(f[3].trim().split(" +"))));
        }
        return out;
    }
}
