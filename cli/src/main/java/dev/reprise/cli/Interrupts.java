package dev.reprise.cli;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * While {@code reprise record} waits for the program: SIGINT and SIGTERM are forwarded to the
 * program instead of ending the recorder, which waits for the program's end (its shutdown hooks
 * and Reprise's exit, which flushes the streams) and then writes the manifest. Ctrl-C signals
 * the whole process group, so the program may get SIGINT twice; a JVM already exiting ignores
 * the second. A shutdown hook would not do: the JVM exits once its hooks end, and the main
 * thread writing the manifest races that. {@code sun.misc.Signal} (module jdk.unsupported) is
 * the JDK's supported way to take a signal over.
 */
final class Interrupts implements AutoCloseable {
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final Process program;
    private final SignalHandler[] previous = new SignalHandler[SIGNALS.length];
    /** The first signal received, as {@code SIGINT}; null if none. */
    private volatile String received;
    /** Counted down once {@link #received} is set. */
    private final CountDownLatch receipt = new CountDownLatch(1);

    private Interrupts(Process program) {
        this.program = program;
    }

    /** Takes SIGINT and SIGTERM over until {@link #close}. */
    static Interrupts forwardTo(Process program) {
        Interrupts in = new Interrupts(program);
        for (int i = 0; i < SIGNALS.length; i++) {
            in.previous[i] = Signal.handle(new Signal(SIGNALS[i]), in::forward);
        }
        return in;
    }

    /**
     * The first signal received, or null, once the program exited with {@code status}. A Ctrl-C
     * reaches the program and the recorder at once, and the JVM runs the recorder's handler on a
     * thread of its own, which may start after the program is gone: when the program died of
     * SIGINT or SIGTERM, the handler is given a moment to say whether the recorder got it too.
     */
    String received(int status) {
        if (received == null && (status == 128 + 2 || status == 128 + 15)) {
            try {
                receipt.await(500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return received;
    }

    private void forward(Signal signal) {
        if (received == null) {
            received = "SIG" + signal.getName();
            receipt.countDown();
        }
        try {
            new ProcessBuilder("kill", "-s", signal.getName(), Long.toString(program.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException | InterruptedException e) {
            program.destroy(); // SIGTERM, the JVM's own way
        }
    }

    /** Gives the signals back to their former handlers: a bench records many programs in one JVM. */
    @Override
    public void close() {
        for (int i = 0; i < SIGNALS.length; i++) {
            Signal.handle(new Signal(SIGNALS[i]), previous[i]);
        }
    }
}
