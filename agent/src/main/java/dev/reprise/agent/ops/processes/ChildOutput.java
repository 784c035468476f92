package dev.reprise.agent.ops.processes;

import java.io.IOException;
import java.io.InputStream;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The program's end of a child's stdout or stderr. Every call is an event of the calling thread:
 * recording reads the JDK's pipe stream, replay returns what it returned, with the same byte
 * boundaries. The JDK's reaper thread, which drains the pipe when the child exits, is not recorded:
 * only what the program's threads got from the stream matters, and that is here.
 */
final class ChildOutput extends InputStream {
    private static final Op READ = Op.named("process.out.read");
    private static final Op READ_BYTE = Op.named("process.out.read.byte");
    private static final Op AVAILABLE = Op.named("process.out.available");
    private static final Op SKIP = Op.named("process.out.skip");
    private static final Op CLOSE = Op.named("process.out.close");

    /** The JDK's stream; null on replay. */
    private final InputStream live;

    ChildOutput(InputStream live) {
        this.live = live;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (!Rt.claim()) {
            return RecordedProcess.unclaimed(live).read(b, off, len);
        }
        Ev ev = Ev.begin(READ, 0, len);
        try {
            return Buffers.read(ev, b, off, ev.i(ev.live() ? live.read(b, off, len) : 0));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Override
    public int read() throws IOException {
        return number(READ_BYTE);
    }

    @Override
    public int available() throws IOException {
        return number(AVAILABLE);
    }

    private int number(Op op) throws IOException {
        if (!Rt.claim()) {
            InputStream in = RecordedProcess.unclaimed(live);
            return op == READ_BYTE ? in.read() : in.available();
        }
        Ev ev = Ev.begin(op, 0, 0);
        try {
            return ev.i(ev.live() ? (op == READ_BYTE ? live.read() : live.available()) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Override
    public long skip(long n) throws IOException {
        if (!Rt.claim()) {
            return RecordedProcess.unclaimed(live).skip(n);
        }
        Ev ev = Ev.begin(SKIP, 0, (int) n);
        try {
            return ev.j(ev.live() ? live.skip(n) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Override
    public void close() throws IOException {
        if (!Rt.claim()) {
            RecordedProcess.unclaimed(live).close();
            return;
        }
        Ev ev = Ev.begin(CLOSE, 0, 0);
        try {
            if (ev.live()) {
                live.close();
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
