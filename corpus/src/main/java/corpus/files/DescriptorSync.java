package corpus.files;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * Writes a file and forces it to disk in every way the JDK offers, as databases and logs do:
 * {@code getFD().sync()} of a {@code RandomAccessFile} and of a {@code FileOutputStream}, the
 * descriptor's {@code valid()}, a channel's {@code force} and lock. Each step prints its outcome.
 */
public final class DescriptorSync {
    public static void main(String[] args) throws Exception {
        File f = File.createTempFile("descriptor-sync", ".dat");
        try {
            try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
                raf.write(("written at " + System.nanoTime() + "\n").getBytes());
                FileDescriptor fd = raf.getFD();
                System.out.println("raf fd valid: " + fd.valid());
                sync("raf", fd);
                FileChannel ch = raf.getChannel();
                ch.force(true);
                try (FileLock lock = ch.tryLock()) {
                    System.out.println("raf channel forced, locked: " + (lock != null && lock.isValid()));
                }
                raf.seek(0);
                System.out.println("raf read back: " + raf.readLine());
            }
            try (FileOutputStream out = new FileOutputStream(f, true)) {
                out.write("appended\n".getBytes());
                System.out.println("stream fd valid: " + out.getFD().valid());
                sync("stream", out.getFD());
                out.getChannel().force(false);
                System.out.println("stream channel forced, size " + out.getChannel().size());
            }
            try (FileInputStream in = new FileInputStream(f)) {
                System.out.println("input fd valid: " + in.getFD().valid());
                sync("input", in.getFD());
                System.out.println("read " + new String(in.readAllBytes()).lines().count() + " lines");
            }
            RandomAccessFile closed = new RandomAccessFile(f, "r");
            FileDescriptor fd = closed.getFD();
            closed.close();
            System.out.println("closed fd valid: " + fd.valid());
            sync("closed", fd);
        } finally {
            System.out.println("deleted: " + f.delete());
        }
    }

    private static void sync(String what, FileDescriptor fd) {
        try {
            fd.sync();
            System.out.println(what + " synced");
        } catch (Exception e) {
            System.out.println(what + " sync failed: " + e);
        }
    }
}
