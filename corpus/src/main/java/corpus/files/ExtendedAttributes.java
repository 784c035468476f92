package corpus.files;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.UserDefinedFileAttributeView;

import corpus.Expect;

/**
 * Extended attributes of a file, through the two NIO views Linux keeps in them: DOS flags
 * (commons-io's {@code PathUtils.setReadOnly}, which deletes a directory tree, tries that view
 * first) and user-defined attributes, written, listed, read and removed. Expected: the replay,
 * with the file gone, prints what the recording found, failures included where the file
 * system keeps no extended attributes.
 */
@Expect
public final class ExtendedAttributes {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("xattrs");
        Path file = dir.resolve("data.txt");
        Files.writeString(file, "hello");
        DosFileAttributeView dos = Files.getFileAttributeView(file, DosFileAttributeView.class);
        try {
            dos.setArchive(true);
            dos.setReadOnly(false);
            DosFileAttributes a = dos.readAttributes();
            System.out.println("dos archive " + a.isArchive() + ", hidden " + a.isHidden() + ", read-only " + a.isReadOnly());
        } catch (Exception e) {
            System.out.println("dos view failed: " + e.getClass().getName());
        }
        UserDefinedFileAttributeView user = Files.getFileAttributeView(file, UserDefinedFileAttributeView.class);
        try {
            user.write("reprise.note", StandardCharsets.UTF_8.encode("recorded"));
            System.out.println("user attributes " + user.list().stream().sorted().toList());
            ByteBuffer b = ByteBuffer.allocate(user.size("reprise.note"));
            user.read("reprise.note", b);
            System.out.println("note " + new String(b.array(), 0, b.position(), StandardCharsets.UTF_8));
            user.delete("reprise.note");
            System.out.println("after delete " + user.list().stream().sorted().toList());
            user.read("reprise.note", ByteBuffer.allocate(16));
        } catch (Exception e) {
            System.out.println("user view: " + e.getClass().getName());
        }
        Files.delete(file);
        Files.delete(dir);
    }
}
