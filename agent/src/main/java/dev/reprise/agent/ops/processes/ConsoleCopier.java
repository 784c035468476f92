package dev.reprise.agent.ops.processes;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * Copies a child's output that the program let it inherit to the JVM's own stdout or stderr.
 * Recording pipes that output instead ({@link ProcessOps#start}), so its bytes are in the
 * recording: this thread reads the pipe ({@link ChildOutput}, its events) and writes to the
 * console stream, whose lock orders its writes with the program's. It is a recorded thread, which
 * the program's thread starts right after the child's start, so a replay runs it too, from the
 * recording, and prints the same bytes in the same places.
 */
final class ConsoleCopier extends Thread {
    private final InputStream from;
    private final PrintStream to;

    ConsoleCopier(String name, InputStream from, PrintStream to) {
        super(name); // named: an unnamed thread would take a number from the program's "Thread-N"
        this.from = from;
        this.to = to;
        setDaemon(true);
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = from.read(buffer, 0, buffer.length)) >= 0;) {
                to.write(buffer, 0, n);
                to.flush();
            }
        } catch (IOException e) {
            // The pipe was closed under the copy: the child's output ends there, on the console too.
        }
    }
}
