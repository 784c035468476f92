package conformance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed SQL workload on an embedded database: one table, THREADS client threads each inserting
 * and updating its own range of rows in transactions, then queries whose results do not depend on
 * how the threads interleaved. Usage: SqlWorkload JDBC-URL THREADS ROWS-PER-THREAD.
 */
public final class SqlWorkload {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        int threads = Integer.parseInt(args[1]);
        int rows = Integer.parseInt(args[2]);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, owner VARCHAR(40), balance BIGINT)");
        }
        List<Thread> clients = new ArrayList<>();
        Throwable[] failure = new Throwable[threads];
        for (int t = 0; t < threads; t++) {
            int first = t * rows;
            int index = t;
            Thread th = new Thread(() -> {
                try {
                    client(url, first, rows);
                } catch (Throwable e) {
                    failure[index] = e;
                }
            }, "client-" + t);
            clients.add(th);
            th.start();
        }
        for (Thread th : clients) {
            th.join();
        }
        for (Throwable e : failure) {
            if (e != null) {
                throw new IllegalStateException("a client failed", e);
            }
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            print(s, "SELECT COUNT(*), SUM(balance), MIN(balance), MAX(balance) FROM account");
            print(s, "SELECT owner, COUNT(*), SUM(balance) FROM account GROUP BY owner ORDER BY owner");
            print(s, "SELECT id, owner, balance FROM account WHERE MOD(id, 97) = 0 ORDER BY id");
        }
        System.out.println("done");
    }

    private static void client(String url, int first, int rows) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO account VALUES (?, ?, ?)")) {
                for (int i = first; i < first + rows; i++) {
                    ins.setInt(1, i);
                    ins.setString(2, "owner" + (i % 7));
                    ins.setLong(3, (i * 7919L) % 1000);
                    ins.executeUpdate();
                    if (i % 50 == 49) {
                        c.commit();
                    }
                }
                c.commit();
            }
            try (PreparedStatement up = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?")) {
                for (int i = first; i < first + rows; i += 3) {
                    up.setLong(1, i % 11);
                    up.setInt(2, i);
                    up.executeUpdate();
                }
                c.commit();
            }
        }
    }

    private static void print(Statement s, String sql) throws SQLException {
        System.out.println("> " + sql);
        try (ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? " | " : "").append(r.getString(i));
                }
                System.out.println(b);
            }
        }
    }
}
