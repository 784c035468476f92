package dev.reprise.agent.ops.processes;

import java.io.IOException;
import java.io.OutputStream;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The program's end of a child's stdin. Every call is an event of the calling thread whose digest
 * is what it writes: recording writes to the JDK's pipe stream, replay checks the bytes against
 * the recording's and sends them nowhere (no child runs).
 */
final class ChildInput extends OutputStream {
    private static final Op WRITE = Op.named("process.in.write");
    private static final Op FLUSH = Op.named("process.in.flush");
    private static final Op CLOSE = Op.named("process.in.close");
    private static final int DO_FLUSH = 0;
    private static final int DO_CLOSE = 1;

    /** The JDK's stream; null on replay. */
    private final OutputStream live;

    ChildInput(OutputStream live) {
        this.live = live;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (!Rt.claim()) {
            RecordedProcess.unclaimed(live).write(b, off, len);
            return;
        }
        Ev ev = Ev.begin(WRITE, 0, Buffers.digest(b, off, len));
        try {
            if (ev.live()) {
                live.write(b, off, len);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
        call(FLUSH, DO_FLUSH);
    }

    @Override
    public void close() throws IOException {
        call(CLOSE, DO_CLOSE);
    }

    private void call(Op op, int what) throws IOException {
        if (!Rt.claim()) {
            run(RecordedProcess.unclaimed(live), what);
            return;
        }
        Ev ev = Ev.begin(op, 0, 0);
        try {
            if (ev.live()) {
                run(live, what);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    private static void run(OutputStream out, int what) throws IOException {
        if (what == DO_FLUSH) {
            out.flush();
        } else {
            out.close();
        }
    }
}
