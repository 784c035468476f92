package greet;

import java.util.ResourceBundle;

public final class Greeter {
    private Greeter() {
    }

    public static String greet(String who) {
        return ResourceBundle.getBundle("greet.messages").getString("hello") + ", " + who;
    }

    public static void main(String[] args) {
        System.out.println(greet(args.length > 0 ? args[0] : "world"));
    }
}
