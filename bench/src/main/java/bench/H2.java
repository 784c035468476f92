package bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * h2: an in-memory H2 database. Several client threads each load and update their own accounts
 * and run queries over them (TPC-like, as DaCapo's h2 does); the main thread then digests
 * ordered aggregate queries over all the data, whose answers do not depend on the interleaving.
 */
public final class H2 {
    private static final String URL = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";

    private H2() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int rows = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account(id INT PRIMARY KEY, client INT, name VARCHAR(40), balance BIGINT)");
            s.execute("CREATE TABLE transfer(id IDENTITY PRIMARY KEY, client INT, account INT, amount BIGINT)");
            s.execute("CREATE INDEX account_client ON account(client)");
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int client = t;
                Thread w = new Thread(() -> client(client, rows), "client-" + t);
                clients.add(w);
                w.start();
            }
            for (Thread w : clients) {
                w.join();
            }
            ResultDigest digest = new ResultDigest();
            query(s, "SELECT client, COUNT(*), SUM(balance), MIN(balance), MAX(balance) FROM account GROUP BY client ORDER BY client", digest);
            query(s, "SELECT client, COUNT(*), SUM(amount) FROM transfer GROUP BY client ORDER BY client", digest);
            query(s, "SELECT id, name, balance FROM account WHERE MOD(id, 97) = 0 ORDER BY balance DESC, id", digest);
            query(s, "SELECT a.client, COUNT(*) FROM account a JOIN transfer t ON a.id = t.account "
                    + "WHERE t.amount > 50 GROUP BY a.client ORDER BY a.client", digest);
            digest.print("h2");
        }
        Timed.end();
    }

    private static void client(int client, int rows) {
        int base = client * rows;
        try (Connection c = DriverManager.getConnection(URL)) {
            c.setAutoCommit(false);
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO account VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    ins.setInt(1, base + i);
                    ins.setInt(2, client);
                    ins.setString(3, "account-" + client + "-" + i);
                    ins.setLong(4, 1000L + (i * 7919L) % 5000);
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            c.commit();
            try (PreparedStatement upd = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
                 PreparedStatement log = c.prepareStatement("INSERT INTO transfer(client, account, amount) VALUES (?, ?, ?)");
                 PreparedStatement sel = c.prepareStatement("SELECT SUM(balance) FROM account WHERE client = ? AND id < ?")) {
                for (int i = 0; i < rows; i++) {
                    int account = base + (i * 31) % rows;
                    long amount = (i * 13L) % 100;
                    upd.setLong(1, amount);
                    upd.setInt(2, account);
                    upd.executeUpdate();
                    log.setInt(1, client);
                    log.setInt(2, account);
                    log.setLong(3, amount);
                    log.executeUpdate();
                    if (i % 10 == 0) {
                        sel.setInt(1, client);
                        sel.setInt(2, account);
                        try (ResultSet rs = sel.executeQuery()) {
                            rs.next();
                        }
                        c.commit();
                    }
                }
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void query(Statement s, String sql, ResultDigest digest) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            int cols = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= cols; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                digest.add(row.toString());
            }
        }
    }
}
