package corpus.threads;

import corpus.Expect;
import java.util.Random;

/**
 * Tellers move money between accounts, each transfer locking both accounts in id order; the
 * journal line of every transfer shows the balances it saw.
 */
@Expect
public final class BankTransfers {
    static final class Account {
        final int id;
        long balance = 1000;

        Account(int id) {
            this.id = id;
        }
    }

    public static void main(String[] args) throws Exception {
        Account[] accounts = new Account[6];
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = new Account(i);
        }
        Thread[] tellers = new Thread[4];
        for (int t = 0; t < tellers.length; t++) {
            int teller = t;
            tellers[t] = new Thread(() -> {
                Random random = new Random();
                for (int i = 0; i < 60; i++) {
                    Account a = accounts[random.nextInt(accounts.length)];
                    Account b = accounts[random.nextInt(accounts.length)];
                    if (a == b) {
                        continue;
                    }
                    Account first = a.id < b.id ? a : b;
                    Account second = a.id < b.id ? b : a;
                    synchronized (first) {
                        synchronized (second) {
                            long amount = random.nextInt(100);
                            a.balance -= amount;
                            b.balance += amount;
                            System.out.println("teller" + teller + " " + a.id + "->" + b.id + " " + amount
                                    + " balances " + a.balance + " " + b.balance);
                        }
                    }
                }
            });
        }
        for (Thread t : tellers) {
            t.start();
        }
        for (Thread t : tellers) {
            t.join();
        }
        long total = 0;
        for (Account a : accounts) {
            total += a.balance;
        }
        System.out.println("total " + total);
    }
}
