package conformance.orm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;

/**
 * Hibernate ORM over an embedded H2 file database with a HikariCP pool, as a service's data layer
 * runs: the schema created from three mapped entities, then WORKERS threads each persisting
 * purchases in transactions of 25, each looking its customer up by an HQL query, then reports in
 * HQL (joins, grouping, ordering, a collection's emptiness) printed in a fixed order. Hibernate's
 * HQL parser (ANTLR), its type registry and its caches are shared by the workers, lazily filled.
 */
public final class OrmDriver {
    private static final int BATCH = 25;
    private static final String[] CATEGORIES = {"books", "games", "tools", "food"};

    private OrmDriver() {
    }

    public static void main(String[] args) throws Exception {
        int workers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int perWorker = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        System.setProperty("org.jboss.logging.provider", "jdk");
        Logger.getLogger("").setLevel(Level.WARNING);
        for (var h : Logger.getLogger("").getHandlers()) {
            h.setLevel(Level.WARNING);
        }
        Logger.getLogger("org.hibernate").setLevel(Level.SEVERE);
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting("hibernate.connection.url", "jdbc:h2:./db")
                .applySetting("hibernate.connection.username", "sa")
                .applySetting("hibernate.connection.password", "")
                .applySetting("hibernate.connection.provider_class", "org.hibernate.hikaricp.internal.HikariCPConnectionProvider")
                .applySetting("hibernate.hikari.maximumPoolSize", "5")
                .applySetting("hibernate.hbm2ddl.auto", "create")
                .applySetting("hibernate.jdbc.batch_size", Integer.toString(BATCH))
                .build();
        SessionFactory sf;
        try {
            sf = new MetadataSources(registry).addAnnotatedClass(Customer.class).addAnnotatedClass(Product.class)
                    .addAnnotatedClass(Purchase.class).buildMetadata().buildSessionFactory();
        } catch (RuntimeException e) {
            StandardServiceRegistryBuilder.destroy(registry);
            throw e;
        }
        try {
            seed(sf, workers);
            System.out.println("persisted purchases: " + persist(sf, workers, perWorker));
            report(sf);
        } finally {
            sf.close();
        }
    }

    private static void seed(SessionFactory sf, int workers) {
        sf.inTransaction(s -> {
            for (int i = 0; i < 12; i++) {
                s.persist(new Product(String.format("SKU-%02d", i), CATEGORIES[i % CATEGORIES.length], 199 + 150L * i));
            }
            for (int w = 0; w < workers; w++) {
                for (int c = 0; c < 5; c++) {
                    s.persist(new Customer("cust-" + w + "-" + c, c % 2 == 0 ? "north" : "south"));
                }
            }
        });
    }

    private static int persist(SessionFactory sf, int workers, int perWorker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<Integer>> done = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int worker = w;
            done.add(pool.submit(() -> {
                int persisted = 0;
                for (int start = 0; start < perWorker; start += BATCH) {
                    try (Session s = sf.openSession()) {
                        Transaction tx = s.beginTransaction();
                        try {
                            for (int i = start; i < Math.min(start + BATCH, perWorker); i++) {
                                Customer c = s.createSelectionQuery("from Customer where name = :n", Customer.class)
                                        .setParameter("n", "cust-" + worker + "-" + (i % 5)).getSingleResult();
                                Product p = s.find(Product.class, String.format("SKU-%02d", (i * 7 + worker) % 12));
                                s.persist(new Purchase(c, p, 1 + i % 9, worker));
                                persisted++;
                            }
                            tx.commit();
                        } catch (RuntimeException e) {
                            tx.rollback();
                            throw e;
                        }
                    }
                }
                return persisted;
            }));
        }
        int total = 0;
        for (Future<Integer> f : done) {
            total += f.get();
        }
        pool.shutdown();
        return total;
    }

    private static void report(SessionFactory sf) {
        sf.inSession(s -> {
            System.out.println("counts: purchases=" + count(s, "Purchase") + " customers=" + count(s, "Customer")
                    + " products=" + count(s, "Product"));
            System.out.println("revenue cents: " + s.createSelectionQuery(
                    "select sum(o.quantity * p.priceCents) from Purchase o join o.product p", Long.class).getSingleResult());
            rows(s, "by category", "select p.category, count(o), sum(o.quantity), sum(o.quantity * p.priceCents)"
                    + " from Purchase o join o.product p group by p.category order by p.category", 0);
            rows(s, "by region", "select c.region, count(o), avg(o.quantity) from Purchase o join o.customer c"
                    + " group by c.region order by c.region", 0);
            rows(s, "top customers", "select c.name, sum(o.quantity * p.priceCents) as spend from Purchase o"
                    + " join o.customer c join o.product p group by c.name order by spend desc, c.name asc", 5);
            rows(s, "by worker", "select o.worker, count(o), min(o.quantity), max(o.quantity) from Purchase o"
                    + " group by o.worker order by o.worker", 0);
            System.out.println("skus with big purchases: " + s.createSelectionQuery("select distinct p.sku from Product p"
                    + " join Purchase o on o.product = p where o.quantity >= 8 order by p.sku", String.class).getResultList());
            System.out.println("customers without purchases: " + s.createSelectionQuery(
                    "select c.name from Customer c where c.purchases is empty order by c.name", String.class).getResultList());
        });
    }

    private static long count(Session s, String entity) {
        return s.createSelectionQuery("select count(e) from " + entity + " e", Long.class).getSingleResult();
    }

    private static void rows(Session s, String title, String hql, int limit) {
        System.out.println(title + ":");
        var query = s.createSelectionQuery(hql, Object[].class);
        if (limit > 0) {
            query.setMaxResults(limit);
        }
        for (Object[] row : query.getResultList()) {
            StringBuilder line = new StringBuilder(" ");
            for (Object v : row) {
                line.append(' ').append(v instanceof Double d ? String.format("%.4f", d) : String.valueOf(v));
            }
            System.out.println(line);
        }
    }
}
