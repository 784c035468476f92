package dev.reprise.agent.ops.files;

import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Closing the channel of a stream or a {@code RandomAccessFile} closes its parent too: the JDK's
 * {@code implCloseChannel} calls {@code parent.close()}, but only while the descriptor is valid.
 * A replay never opens the program's files, so its descriptors never are, and the parent's close
 * the recording made (an event, for a {@code RandomAccessFile}) would be skipped. Replaying, this
 * prologue makes that call itself while the parent is open, as the recording's channel did with
 * the descriptor the open parent still held. Recording, it does nothing.
 */
public final class ChannelParentClose {
    private static final Class<?> IMPL = JdkMethods.jdkClass("sun.nio.ch.FileChannelImpl");
    /** {@code Object} in JDK 17, {@code Closeable} in JDK 25: read as an {@code Object}. */
    private static final VarHandle PARENT = JdkMethods.field(IMPL, "parent", declaredType(IMPL, "parent"));
    private static final VarHandle FD = JdkMethods.field(IMPL, "fd", FileDescriptor.class);
    private static final VarHandle RAF_CLOSED = JdkMethods.field(RandomAccessFile.class, "closed", boolean.class);
    private static final VarHandle IN_CLOSED = JdkMethods.field(FileInputStream.class, "closed", boolean.class);
    private static final VarHandle OUT_CLOSED = JdkMethods.field(FileOutputStream.class, "closed", boolean.class);

    private ChannelParentClose() {
    }

    /** The type {@code c} declares its field {@code name} with. */
    private static Class<?> declaredType(Class<?> c, String name) {
        try {
            return c.getDeclaredField(name).getType();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("no " + name + " field in " + c.getName(), e);
        }
    }

    /** Whether the parent is open; a parent of a kind the JDK does not give a channel counts as closed. */
    private static boolean open(Object parent) {
        if (parent instanceof RandomAccessFile) {
            return !(boolean) RAF_CLOSED.getVolatile((RandomAccessFile) parent);
        }
        if (parent instanceof FileInputStream) {
            return !(boolean) IN_CLOSED.getVolatile((FileInputStream) parent);
        }
        if (parent instanceof FileOutputStream) {
            return !(boolean) OUT_CLOSED.getVolatile((FileOutputStream) parent);
        }
        return false;
    }

    /**
     * Runs claimed, at depth 0: a channel closed from inside an event (the parent's own close,
     * which closes its channel) is left to the JDK. The claim is released before the parent's
     * close, which makes its own event.
     */
    @Prologue(owner = "sun/nio/ch/FileChannelImpl", method = "implCloseChannel", desc = "()V", kind = Prologue.Kind.BEFORE)
    public static void implCloseChannel(FileChannel self) throws Throwable {
        Object parent;
        try {
            if (!Session.current().replaying() || ((FileDescriptor) FD.get(self)).valid()) {
                return;
            }
            parent = PARENT.get(self);
            if (!open(parent)) {
                return;
            }
        } finally {
            Rt.release();
        }
        ((Closeable) parent).close();
    }
}
