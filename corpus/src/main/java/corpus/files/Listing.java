package corpus.files;

import java.io.File;
import java.util.Arrays;

/**
 * Lists a directory in the order the file system returns, with each entry's metadata, then
 * creates, renames, retimes and deletes entries in it.
 */
public final class Listing {
    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        System.out.println("dir exists " + dir.exists() + " isDirectory " + dir.isDirectory()
                + " canonical " + dir.getCanonicalPath().equals(dir.getAbsolutePath()));
        String[] names = dir.list();
        System.out.println("list " + Arrays.toString(names));
        for (File f : dir.listFiles()) {
            System.out.println(f.getName() + ": file " + f.isFile() + " dir " + f.isDirectory() + " length " + f.length()
                    + " modified " + f.lastModified() + " read " + f.canRead() + " write " + f.canWrite()
                    + " hidden " + f.isHidden());
        }
        System.out.println("space known " + (dir.getTotalSpace() > 0) + " free<=total "
                + (dir.getFreeSpace() <= dir.getTotalSpace()) + " usable " + dir.getUsableSpace() % 1000);

        File sub = new File(dir, "made/deeper");
        System.out.println("mkdirs " + sub.mkdirs() + " mkdir again " + sub.mkdir());
        File created = new File(sub, "new.txt");
        System.out.println("createNewFile " + created.createNewFile() + " again " + created.createNewFile());
        File renamed = new File(dir, "renamed.txt");
        System.out.println("renameTo " + created.renameTo(renamed) + " exists " + renamed.exists() + " old " + created.exists());
        System.out.println("setLastModified " + renamed.setLastModified(1_000_000_000_000L) + " now " + renamed.lastModified());
        System.out.println("setReadOnly " + renamed.setReadOnly() + " canWrite " + renamed.canWrite());
        System.out.println("setWritable " + renamed.setWritable(true) + " canWrite " + renamed.canWrite());
        System.out.println("setExecutable " + renamed.setExecutable(true, true) + " canExecute " + renamed.canExecute());
        System.out.println("delete " + renamed.delete() + " again " + renamed.delete());
        System.out.println("delete dirs " + sub.delete() + " " + sub.getParentFile().delete());
        System.out.println("list after " + Arrays.toString(dir.list()));
        System.out.println("missing list " + Arrays.toString(new File(dir, "nope").list()));
    }
}
