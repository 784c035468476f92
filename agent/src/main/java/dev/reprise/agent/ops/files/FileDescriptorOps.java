package dev.reprise.agent.ops.files;

import java.io.FileDescriptor;
import java.io.SyncFailedException;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The program's questions to a {@code FileDescriptor} it got from a stream, a
 * {@code RandomAccessFile} or a channel ({@code getFD()}). A replay never opens the program's
 * files, so the descriptor it holds is not the recording's: {@code valid()} and {@code sync()}
 * answer what the recording's answered, and a sync is not performed. At call sites in application
 * classes ({@code sync} is native in JDK 17): the JDK's own calls concern the descriptors the
 * replay really holds.
 */
public final class FileDescriptorOps {
    private static final Op VALID = Op.named("fd.valid");
    private static final Op SYNC = Op.named("fd.sync");

    private FileDescriptorOps() {
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/io/FileDescriptor", method = "valid", desc = "()Z")
    public static boolean valid(FileDescriptor fd, int site) {
        if (!Rt.claim()) {
            return fd.valid();
        }
        Ev ev = Ev.begin(VALID, site, 0);
        try {
            return ev.z(ev.live() && fd.valid());
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/io/FileDescriptor", method = "sync", desc = "()V")
    public static void sync(FileDescriptor fd, int site) throws SyncFailedException {
        if (!Rt.claim()) {
            fd.sync();
            return;
        }
        Ev ev = Ev.begin(SYNC, site, 0);
        try {
            if (ev.live()) {
                fd.sync();
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
