package dev.reprise.tests;

/** What a command did: its exit status and everything it wrote. */
public record Run(int status, String stdout, String stderr) {
    /** stderr without Reprise's own {@code reprise:} lines: what the program itself wrote. */
    public String programStderr() {
        StringBuilder sb = new StringBuilder();
        for (String line : stderr.split("\n", -1)) {
            if (!line.startsWith("reprise: ")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "exit " + status + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
}
