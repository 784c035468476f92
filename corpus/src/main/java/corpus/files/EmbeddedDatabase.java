package corpus.files;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.xerial.snappy.Snappy;

/**
 * SQLite through its JDBC driver, whose native library opens, reads and writes the database file
 * itself, where no hook of Java's file I/O sees it; then Snappy, whose native library only
 * computes on the arrays it is given. {@code create FILE} makes the database; {@code update FILE}
 * reads it, changes it and reads it again, and compresses what it read. A replay of {@code update}
 * must print the same without the file, and leave no file behind.
 */
public final class EmbeddedDatabase {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + args[1])) {
            if (args[0].equals("create")) {
                create(c);
                return;
            }
            StringBuilder seen = new StringBuilder();
            report(c, seen);
            try (PreparedStatement p = c.prepareStatement("update stock set count = count * 2 where name like ?")) {
                p.setString(1, "b%");
                System.out.println("doubled " + p.executeUpdate());
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate("insert into stock(name, count, price) values ('zucchini', 3, 0.75)");
                s.executeQuery("select no_such_column from stock");
            } catch (SQLException e) {
                // The driver's own exception, made by its native code, with its error code and trace.
                System.out.println("refused: " + e.getMessage() + " (" + e.getClass().getSimpleName() + ", code " + e.getErrorCode() + ")");
                for (StackTraceElement frame : e.getStackTrace()) {
                    System.out.println("  at " + frame);
                    if (frame.getClassName().equals(EmbeddedDatabase.class.getName())) {
                        break;
                    }
                }
            }
            report(c, seen);
            byte[] text = seen.toString().getBytes(StandardCharsets.UTF_8);
            byte[] packed = Snappy.compress(text);
            System.out.println("snappy: " + text.length + " bytes to " + packed.length + ", back "
                    + new String(Snappy.uncompress(packed), StandardCharsets.UTF_8).equals(seen.toString()));
        }
    }

    private static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("create table stock(id integer primary key, name text, count integer, price real, photo blob)");
        }
        try (PreparedStatement p = c.prepareStatement("insert into stock(name, count, price, photo) values (?, ?, ?, ?)")) {
            String[] names = {"apple", "banana", "blackberry", "cherry", "date"};
            for (int i = 0; i < names.length; i++) {
                p.setString(1, names[i]);
                p.setInt(2, 10 + i * 7);
                p.setDouble(3, 0.5 + i / 4.0);
                p.setBytes(4, new byte[] {(byte) i, (byte) (i * 3), 42});
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    private static void report(Connection c, StringBuilder seen) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select name, count, price, photo, typeof(photo) from stock order by count desc, name")) {
            while (r.next()) {
                byte[] photo = r.getBytes(4);
                String line = r.getString(1) + " " + r.getInt(2) + " " + r.getDouble(3) + " "
                        + (photo == null ? "no photo" : photo.length + " bytes ending " + photo[photo.length - 1]) + " " + r.getString(5);
                System.out.println(line);
                seen.append(line).append('\n');
            }
        }
    }
}
