package dev.reprise.agent.ops.files;

import java.io.FileDescriptor;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.ops.RecordingCopies;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * {@code FileChannel}s on files ({@code sun.nio.ch.FileChannelImpl}), which also carry
 * {@code Files.newInputStream}, {@code readAllBytes}, {@code lines}, {@code write},
 * {@code newOutputStream} and the channels of java.io streams. On replay the channel's
 * descriptor is invalid and never used: reads return the recorded bytes into heap or direct
 * buffers, writes are checked against their digest and dropped (except to stdout and stderr),
 * and locks are objects that lock nothing; a mapped region is a copy the recording keeps.
 * Channels on the JDK's own files run live and unlogged.
 */
public final class FileChannelOps {
    private static final String FCI = "sun/nio/ch/FileChannelImpl";
    private static final Class<?> IMPL = JdkMethods.jdkClass("sun.nio.ch.FileChannelImpl");

    private static final Op READ = Op.named("file.channel.read");
    private static final Op READ_AT = Op.named("file.channel.pread");
    private static final Op READ_V = Op.named("file.channel.readv");
    private static final Op WRITE = Op.named("file.channel.write");
    private static final Op WRITE_AT = Op.named("file.channel.pwrite");
    private static final Op WRITE_V = Op.named("file.channel.writev");
    private static final Op POSITION = Op.named("file.channel.position");
    private static final Op SEEK = Op.named("file.channel.seek");
    private static final Op SIZE = Op.named("file.channel.size");
    private static final Op TRUNCATE = Op.named("file.channel.truncate");
    private static final Op FORCE = Op.named("file.channel.force");
    private static final Op TRANSFER_TO = Op.named("file.channel.transferto");
    private static final Op TRANSFER_FROM = Op.named("file.channel.transferfrom");
    private static final Op MAP = Op.named("file.channel.map");
    private static final String MAPPED_KIND = "mapped";
    private static final String MAPPED_EXT = "bin";
    private static final Op LOCK = Op.named("file.channel.lock");
    private static final Op RELEASE = Op.named("file.channel.release");
    private static final Op AVAILABLE = Op.named("file.channel.available");
    private static final Op OTHER = Op.named("file.channel.other");

    private static final MethodHandle READ_LIVE = live("read", int.class, ByteBuffer.class);
    private static final MethodHandle READ_AT_LIVE = live("read", int.class, ByteBuffer.class, long.class);
    private static final MethodHandle READ_V_LIVE = live("read", long.class, ByteBuffer[].class, int.class, int.class);
    private static final MethodHandle WRITE_LIVE = live("write", int.class, ByteBuffer.class);
    private static final MethodHandle WRITE_AT_LIVE = live("write", int.class, ByteBuffer.class, long.class);
    private static final MethodHandle WRITE_V_LIVE = live("write", long.class, ByteBuffer[].class, int.class, int.class);
    private static final MethodHandle POSITION_LIVE = live("position", long.class);
    private static final MethodHandle SEEK_LIVE = live("position", FileChannel.class, long.class);
    private static final MethodHandle SIZE_LIVE = live("size", long.class);
    private static final MethodHandle TRUNCATE_LIVE = live("truncate", FileChannel.class, long.class);
    private static final MethodHandle FORCE_LIVE = live("force", void.class, boolean.class);
    private static final MethodHandle TRANSFER_TO_LIVE =
            live("transferTo", long.class, long.class, long.class, WritableByteChannel.class);
    private static final MethodHandle TRANSFER_FROM_LIVE =
            live("transferFrom", long.class, ReadableByteChannel.class, long.class, long.class);
    private static final MethodHandle TO_CHANNEL =
            live("transferToArbitraryChannel", long.class, long.class, long.class, WritableByteChannel.class);
    private static final MethodHandle FROM_CHANNEL =
            live("transferFromArbitraryChannel", long.class, ReadableByteChannel.class, long.class, long.class);
    private static final MethodHandle MAP_LIVE =
            live("map", MappedByteBuffer.class, FileChannel.MapMode.class, long.class, long.class);
    private static final MethodHandle MAP_SEGMENT_LIVE = mapSegment();
    private static final MethodHandle SEGMENT_AS_BUFFER = segmentAsBuffer();
    private static final MethodHandle LOCK_LIVE = live("lock", FileLock.class, long.class, long.class, boolean.class);
    private static final MethodHandle TRY_LOCK_LIVE = live("tryLock", FileLock.class, long.class, long.class, boolean.class);
    private static final Class<?> LOCK_IMPL = JdkMethods.jdkClass("sun.nio.ch.FileLockImpl");
    private static final MethodHandle RELEASE_LIVE = JdkMethods.special(IMPL, "release",
            MethodType.methodType(void.class, LOCK_IMPL)).asType(MethodType.methodType(void.class, FileChannel.class, FileLock.class));
    private static final MethodHandle NEW_LOCK = lockConstructor();
    private static final MethodHandle AVAILABLE_LIVE = optional("available", int.class);
    private static final MethodHandle OTHER_LIVE = optional("isOther", boolean.class);

    private static final VarHandle PATH = JdkFiles.pathField(IMPL);
    private static final VarHandle FD = JdkMethods.field(IMPL, "fd", FileDescriptor.class);

    private FileChannelOps() {
    }

    private static MethodHandle live(String name, Class<?> ret, Class<?>... params) {
        MethodType t = MethodType.methodType(ret, params);
        return JdkMethods.special(IMPL, name, t).asType(t.insertParameterTypes(0, FileChannel.class));
    }

    /** JDK 25 only: package-private methods {@code ChannelInputStream} calls. */
    private static MethodHandle optional(String name, Class<?> ret) {
        MethodType t = MethodType.methodType(ret);
        MethodHandle h = JdkMethods.specialIfPresent(IMPL, name, t);
        return h == null ? null : h.asType(t.insertParameterTypes(0, FileChannel.class));
    }

    /**
     * JDK 22 and later: {@code map(MapMode, long, long, Arena)} returning a {@code MemorySegment},
     * typed with {@code Object} for both, which the agent's baseline JDK does not have; null before.
     */
    private static MethodHandle mapSegment() {
        Class<?> arena = foreign("Arena");
        Class<?> segment = foreign("MemorySegment");
        if (arena == null || segment == null) {
            return null;
        }
        MethodHandle h = JdkMethods.specialIfPresent(IMPL, "map",
                MethodType.methodType(segment, FileChannel.MapMode.class, long.class, long.class, arena));
        return h == null ? null : h.asType(MethodType.methodType(Object.class, FileChannel.class,
                FileChannel.MapMode.class, long.class, long.class, Object.class));
    }

    private static MethodHandle segmentAsBuffer() {
        Class<?> segment = foreign("MemorySegment");
        if (segment == null) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class))
                    .asType(MethodType.methodType(ByteBuffer.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach MemorySegment.asByteBuffer", e);
        }
    }

    private static Class<?> foreign(String name) {
        return JdkMethods.jdkClassIfPresent("java.lang.foreign." + name);
    }

    private static MethodHandle lockConstructor() {
        try {
            return MethodHandles.privateLookupIn(LOCK_IMPL, MethodHandles.lookup())
                    .findConstructor(LOCK_IMPL, MethodType.methodType(void.class, FileChannel.class, long.class, long.class,
                            boolean.class))
                    .asType(MethodType.methodType(FileLock.class, FileChannel.class, long.class, long.class, boolean.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the constructor of " + LOCK_IMPL.getName(), e);
        }
    }

    private static boolean jdkFile(FileChannel self) {
        return JdkFiles.isJdkPath((String) PATH.get(self));
    }

    /** Writes to the process's stdout and stderr happen on replay too. */
    private static boolean isConsole(FileChannel self) {
        Object fd = FD.get(self);
        return fd == FileDescriptor.out || fd == FileDescriptor.err;
    }

    @Prologue(owner = FCI, method = "read", desc = "(Ljava/nio/ByteBuffer;)I")
    public static int read(FileChannel self, ByteBuffer dst) throws Throwable {
        if (jdkFile(self)) {
            return (int) READ_LIVE.invokeExact(self, dst);
        }
        Ev ev = Ev.begin(READ, 0, dst == null ? 0 : dst.remaining());
        int pos = dst == null ? 0 : dst.position();
        int n = ev.i(ev.live() ? (int) READ_LIVE.invokeExact(self, dst) : 0);
        Buffers.fill(ev, dst, pos, n);
        return n;
    }

    @Prologue(owner = FCI, method = "read", desc = "(Ljava/nio/ByteBuffer;J)I")
    public static int read(FileChannel self, ByteBuffer dst, long position) throws Throwable {
        if (jdkFile(self)) {
            return (int) READ_AT_LIVE.invokeExact(self, dst, position);
        }
        Ev ev = Ev.begin(READ_AT, 0, 31 * (dst == null ? 0 : dst.remaining()) + Long.hashCode(position));
        int pos = dst == null ? 0 : dst.position();
        int n = ev.i(ev.live() ? (int) READ_AT_LIVE.invokeExact(self, dst, position) : 0);
        Buffers.fill(ev, dst, pos, n);
        return n;
    }

    /** A scattering read: how many bytes went into each buffer, and the bytes. */
    @Prologue(owner = FCI, method = "read", desc = "([Ljava/nio/ByteBuffer;II)J")
    public static long read(FileChannel self, ByteBuffer[] dsts, int offset, int length) throws Throwable {
        if (jdkFile(self)) {
            return (long) READ_V_LIVE.invokeExact(self, dsts, offset, length);
        }
        Ev ev = Ev.begin(READ_V, 0, length);
        int[] before = Buffers.positions(dsts, offset, length);
        long n = ev.j(ev.live() ? (long) READ_V_LIVE.invokeExact(self, dsts, offset, length) : 0);
        for (int i = 0; n > 0 && i < length; i++) {
            ByteBuffer b = dsts[offset + i];
            Buffers.fill(ev, b, before[i], ev.i(ev.live() ? b.position() - before[i] : 0));
        }
        return n;
    }

    @Prologue(owner = FCI, method = "write", desc = "(Ljava/nio/ByteBuffer;)I")
    public static int write(FileChannel self, ByteBuffer src) throws Throwable {
        if (jdkFile(self)) {
            return (int) WRITE_LIVE.invokeExact(self, src);
        }
        Ev ev = Ev.begin(WRITE, 0, Buffers.digest(src));
        int pos = src == null ? 0 : src.position();
        boolean run = ev.live() || isConsole(self);
        int n = ev.i(run ? (int) WRITE_LIVE.invokeExact(self, src) : 0);
        if (!run && n > 0) {
            src.position(pos + n);
        }
        return n;
    }

    @Prologue(owner = FCI, method = "write", desc = "(Ljava/nio/ByteBuffer;J)I")
    public static int write(FileChannel self, ByteBuffer src, long position) throws Throwable {
        if (jdkFile(self)) {
            return (int) WRITE_AT_LIVE.invokeExact(self, src, position);
        }
        Ev ev = Ev.begin(WRITE_AT, 0, 31 * Buffers.digest(src) + Long.hashCode(position));
        int pos = src == null ? 0 : src.position();
        boolean run = ev.live() || isConsole(self);
        int n = ev.i(run ? (int) WRITE_AT_LIVE.invokeExact(self, src, position) : 0);
        if (!run && n > 0) {
            src.position(pos + n);
        }
        return n;
    }

    /** A gathering write: how many bytes each buffer gave. */
    @Prologue(owner = FCI, method = "write", desc = "([Ljava/nio/ByteBuffer;II)J")
    public static long write(FileChannel self, ByteBuffer[] srcs, int offset, int length) throws Throwable {
        if (jdkFile(self)) {
            return (long) WRITE_V_LIVE.invokeExact(self, srcs, offset, length);
        }
        Ev ev = Ev.begin(WRITE_V, 0, Buffers.digest(srcs, offset, length));
        int[] before = Buffers.positions(srcs, offset, length);
        boolean run = ev.live() || isConsole(self);
        long n = ev.j(run ? (long) WRITE_V_LIVE.invokeExact(self, srcs, offset, length) : 0);
        for (int i = 0; n > 0 && i < length; i++) {
            ByteBuffer b = srcs[offset + i];
            int k = ev.i(ev.live() ? b.position() - before[i] : 0);
            if (!run) {
                b.position(before[i] + k);
            }
        }
        return n;
    }

    @Prologue(owner = FCI, method = "position", desc = "()J")
    public static long position(FileChannel self) throws Throwable {
        return number(POSITION, POSITION_LIVE, self);
    }

    @Prologue(owner = FCI, method = "position", desc = "(J)Ljava/nio/channels/FileChannel;")
    public static FileChannel position(FileChannel self, long newPosition) throws Throwable {
        if (jdkFile(self)) {
            return (FileChannel) SEEK_LIVE.invokeExact(self, newPosition);
        }
        Ev ev = Ev.begin(SEEK, 0, Long.hashCode(newPosition));
        if (ev.live()) {
            FileChannel unused = (FileChannel) SEEK_LIVE.invokeExact(self, newPosition);
        }
        return self;
    }

    @Prologue(owner = FCI, method = "size", desc = "()J")
    public static long size(FileChannel self) throws Throwable {
        return number(SIZE, SIZE_LIVE, self);
    }

    /** A number about the channel's file, {@code ()long}. */
    private static long number(Op op, MethodHandle live, FileChannel self) throws Throwable {
        if (jdkFile(self)) {
            return (long) live.invokeExact(self);
        }
        Ev ev = Ev.begin(op, 0, 0);
        return ev.j(ev.live() ? (long) live.invokeExact(self) : 0);
    }

    @Prologue(owner = FCI, method = "truncate", desc = "(J)Ljava/nio/channels/FileChannel;")
    public static FileChannel truncate(FileChannel self, long size) throws Throwable {
        Ev ev = Ev.begin(TRUNCATE, 0, Long.hashCode(size));
        if (ev.live()) {
            FileChannel unused = (FileChannel) TRUNCATE_LIVE.invokeExact(self, size);
        }
        return self;
    }

    @Prologue(owner = FCI, method = "force", desc = "(Z)V")
    public static void force(FileChannel self, boolean metaData) throws Throwable {
        Ev ev = Ev.begin(FORCE, 0, metaData ? 1 : 0);
        if (ev.live()) {
            FORCE_LIVE.invokeExact(self, metaData);
        }
    }

    /**
     * Between two file channels the transfer is one event (the kernel copies). Into any other
     * channel it runs the JDK's read-and-write loop unclaimed: its reads of this channel are
     * events, and what the target does with the bytes is the target's business.
     */
    @Prologue(owner = FCI, method = "transferTo", desc = "(JJLjava/nio/channels/WritableByteChannel;)J")
    public static long transferTo(FileChannel self, long position, long count, WritableByteChannel target)
            throws Throwable {
        if (jdkFile(self)) {
            return (long) TRANSFER_TO_LIVE.invokeExact(self, position, count, target);
        }
        if (!IMPL.isInstance(target)) {
            long size = unclaimedLoop(self, target, position, count);
            if (size < 0) {
                return 0;
            }
            return (long) TO_CHANNEL.invokeExact(self, position, size > 0 ? Math.min(count, size - position) : count, target);
        }
        Ev ev = Ev.begin(TRANSFER_TO, 0, 31 * Long.hashCode(position) + Long.hashCode(count));
        return ev.j(ev.live() ? (long) TRANSFER_TO_LIVE.invokeExact(self, position, count, target) : 0);
    }

    /** Like {@link #transferTo}: from a file channel one event, from any other channel the JDK's loop. */
    @Prologue(owner = FCI, method = "transferFrom", desc = "(Ljava/nio/channels/ReadableByteChannel;JJ)J")
    public static long transferFrom(FileChannel self, ReadableByteChannel src, long position, long count)
            throws Throwable {
        if (jdkFile(self)) {
            return (long) TRANSFER_FROM_LIVE.invokeExact(self, src, position, count);
        }
        if (!IMPL.isInstance(src)) {
            if (unclaimedLoop(self, src, position, count) < 0) {
                return 0;
            }
            return (long) FROM_CHANNEL.invokeExact(self, src, position, count);
        }
        Ev ev = Ev.begin(TRANSFER_FROM, 0, 31 * Long.hashCode(position) + Long.hashCode(count));
        return ev.j(ev.live() ? (long) TRANSFER_FROM_LIVE.invokeExact(self, src, position, count) : 0);
    }

    /**
     * Before a transfer runs the JDK's loop with another kind of channel: releases the claim and
     * makes the JDK's checks. The channel's size (itself an event), or -1 when {@code position}
     * is past it and nothing is transferred.
     */
    private static long unclaimedLoop(FileChannel self, Channel other, long position, long count) throws IOException {
        Rt.release();
        if (!self.isOpen() || other == null || !other.isOpen()) {
            throw new ClosedChannelException();
        }
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException();
        }
        long size = self.size();
        return position > size ? -1 : size;
    }

    /**
     * Mapped memory is read and written without system calls, so no later read is an event: the
     * recording keeps a copy of the region as mapped ({@code mapped-<crc>-<size>.bin}), and a
     * replay maps that copy instead, privately when the program could write, so the copy stays as
     * recorded. What reaches the file's pages after the map (the program's own writes through the
     * channel, another process) is not in the copy.
     */
    @Prologue(owner = FCI, method = "map", desc = "(Ljava/nio/channels/FileChannel$MapMode;JJ)Ljava/nio/MappedByteBuffer;")
    public static MappedByteBuffer map(FileChannel self, FileChannel.MapMode mode, long position, long size)
            throws Throwable {
        if (jdkFile(self)) {
            return (MappedByteBuffer) MAP_LIVE.invokeExact(self, mode, position, size);
        }
        Ev ev = beginMap(mode, position, size);
        if (ev.live()) {
            MappedByteBuffer mapped = (MappedByteBuffer) MAP_LIVE.invokeExact(self, mode, position, size);
            ev.s(RecordingCopies.copy(mapped, MAPPED_KIND, MAPPED_EXT));
            return mapped;
        }
        try (FileChannel ch = mappedCopy(ev, mode)) {
            return ch.map(copyMode(mode), 0, size);
        }
    }

    /** The event of either map, by the region and mode the program asked for. */
    private static Ev beginMap(FileChannel.MapMode mode, long position, long size) {
        return Ev.begin(MAP, 0, 31 * (31 * Long.hashCode(position) + Long.hashCode(size)) + mode.toString().hashCode());
    }

    /** Replay: a channel on the recording's copy of a mapped region, writable where the program could write. */
    private static FileChannel mappedCopy(Ev ev, FileChannel.MapMode mode) throws IOException {
        Path copy = RecordingCopies.checked(ev.s(null), MAPPED_KIND, MAPPED_EXT, "a file region the program mapped");
        return mode == FileChannel.MapMode.READ_ONLY ? FileChannel.open(copy, StandardOpenOption.READ)
                : FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The copy is mapped privately when the program could write, so that it stays as recorded. */
    private static FileChannel.MapMode copyMode(FileChannel.MapMode mode) {
        return mode == FileChannel.MapMode.READ_ONLY ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.PRIVATE;
    }

    /**
     * JDK 22 and later: the same region as a {@code MemorySegment} the program's {@code Arena}
     * owns, kept and replayed like {@link #map(FileChannel, FileChannel.MapMode, long, long)}; the
     * replay maps the copy into that arena, so the segment is unmapped when the program closes it.
     */
    @Prologue(owner = FCI, method = "map", optional = true,
            desc = "(Ljava/nio/channels/FileChannel$MapMode;JJLjava/lang/foreign/Arena;)Ljava/lang/foreign/MemorySegment;")
    public static Object mapSegment(FileChannel self, FileChannel.MapMode mode, long position, long size, Object arena)
            throws Throwable {
        if (jdkFile(self)) {
            return MAP_SEGMENT_LIVE.invokeExact(self, mode, position, size, arena);
        }
        Ev ev = beginMap(mode, position, size);
        if (ev.live()) {
            Object mapped = MAP_SEGMENT_LIVE.invokeExact(self, mode, position, size, arena);
            ev.s(RecordingCopies.copy((ByteBuffer) SEGMENT_AS_BUFFER.invokeExact(mapped), MAPPED_KIND, MAPPED_EXT));
            return mapped;
        }
        try (FileChannel ch = mappedCopy(ev, mode)) {
            return MAP_SEGMENT_LIVE.invokeExact(ch, copyMode(mode), 0L, size, arena);
        }
    }

    @Prologue(owner = FCI, method = "lock", desc = "(JJZ)Ljava/nio/channels/FileLock;")
    public static FileLock lock(FileChannel self, long position, long size, boolean shared) throws Throwable {
        return lock(LOCK_LIVE, self, position, size, shared);
    }

    @Prologue(owner = FCI, method = "tryLock", desc = "(JJZ)Ljava/nio/channels/FileLock;")
    public static FileLock tryLock(FileChannel self, long position, long size, boolean shared) throws Throwable {
        return lock(TRY_LOCK_LIVE, self, position, size, shared);
    }

    /** Whether the lock was granted, and as shared or not; on replay a lock object that locks nothing. */
    private static FileLock lock(MethodHandle live, FileChannel self, long position, long size, boolean shared)
            throws Throwable {
        Ev ev = Ev.begin(LOCK, 0, 31 * (31 * Long.hashCode(position) + Long.hashCode(size)) + (shared ? 1 : 0));
        FileLock lock = ev.live() ? (FileLock) live.invokeExact(self, position, size, shared) : null;
        if (!ev.z(lock != null)) {
            return null;
        }
        boolean granted = ev.z(ev.live() && lock.isShared());
        return ev.live() ? lock : (FileLock) NEW_LOCK.invokeExact(self, position, size, granted);
    }

    @Prologue(owner = FCI, method = "release", desc = "(Lsun/nio/ch/FileLockImpl;)V")
    public static void release(FileChannel self, FileLock lock) throws Throwable {
        Ev ev = Ev.begin(RELEASE, 0, 0);
        if (ev.live()) {
            RELEASE_LIVE.invokeExact(self, lock);
        }
    }

    /** JDK 25: {@code InputStream.available} of {@code Files.newInputStream}. */
    @Prologue(owner = FCI, method = "available", desc = "()I", optional = true)
    public static int available(FileChannel self) throws Throwable {
        if (jdkFile(self)) {
            return (int) AVAILABLE_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(AVAILABLE, 0, 0);
        return ev.i(ev.live() ? (int) AVAILABLE_LIVE.invokeExact(self) : 0);
    }

    /** JDK 25: whether the file is something other than a regular file, directory or link. */
    @Prologue(owner = FCI, method = "isOther", desc = "()Z", optional = true)
    public static boolean isOther(FileChannel self) throws Throwable {
        if (jdkFile(self)) {
            return (boolean) OTHER_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(OTHER, 0, 0);
        return ev.z(ev.live() && (boolean) OTHER_LIVE.invokeExact(self));
    }
}
