package corpus.files;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Closes files through their channels and channels through their files, in both orders, as
 * storage libraries do (a memory-mapped store closes its channel, then its file): closing a
 * channel closes the file it came from, and what the program does with either afterwards fails
 * the way the recording's did. The output depends on the files' contents.
 */
public final class ChannelCloses {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String data = dir.resolve("data.bin").toString();

        RandomAccessFile raf = new RandomAccessFile(data, "rw");
        FileChannel ch = raf.getChannel();
        MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, 64);
        System.out.println("mapped first long " + Long.toHexString(map.getLong(0)));
        map.putLong(8, 0x1122334455667788L);
        ch.write(ByteBuffer.wrap(new byte[] {'c', 'h'}), 16);
        System.out.println("size " + ch.size());
        ch.close();
        System.out.println("after channel close: channel open " + ch.isOpen());
        try {
            raf.read();
            System.out.println("the file still reads");
        } catch (IOException e) {
            System.out.println("the file is closed too: " + e.getMessage());
        }
        raf.close();
        System.out.println("closed file then channel");

        RandomAccessFile second = new RandomAccessFile(data, "r");
        FileChannel secondChannel = second.getChannel();
        System.out.println("second reads " + second.read() + " at size " + secondChannel.size());
        second.close();
        System.out.println("after file close: channel open " + secondChannel.isOpen());
        secondChannel.close();

        try (FileInputStream in = new FileInputStream(data)) {
            FileChannel inChannel = in.getChannel();
            ByteBuffer b = ByteBuffer.allocate(4);
            System.out.println("stream channel reads " + inChannel.read(b) + " first " + b.get(0));
            inChannel.close();
            try {
                System.out.println("the stream still reads " + in.read());
            } catch (IOException e) {
                System.out.println("the stream is closed too: " + e.getMessage());
            }
        }

        FileOutputStream out = new FileOutputStream(dir.resolve("out.bin").toString());
        out.write(new byte[] {1, 2, 3});
        out.getChannel().close();
        try {
            out.write(4);
            System.out.println("the output stream still writes");
        } catch (IOException e) {
            System.out.println("the output stream is closed too: " + e.getMessage());
        }
        out.close();
        System.out.println("done");
    }
}
