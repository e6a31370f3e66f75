import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A small dots-and-boxes engine that speaks the boardgames engine protocol.
 *
 * <p>Compile and let the library drive it (docs/engines.md):
 *
 * <pre>
 *   javac -d build examples/engines/java/DotsEngine.java
 *   boardgames match dots --ai "program:java -cp build DotsEngine" --ai2 random
 * </pre>
 *
 * <p>It plays greedily: it takes a box when it can, else avoids drawing the third side of
 * a box when it can, else draws any edge.
 */
public final class DotsEngine {
    private int rows = 3;
    private int cols = 3;
    /** The edges drawn so far, as grid points i * 100 + j. */
    private Set<Integer> drawn = new HashSet<>();

    public static void main(String[] args) throws IOException {
        new DotsEngine().run(new BufferedReader(new InputStreamReader(System.in)));
    }

    private void run(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            switch (words[0]) {
                case "quit":
                    answer("");
                    return;
                case "protocol":
                    answer("2");
                    break;
                case "name":
                    answer("dots-greedy (Java)");
                    break;
                case "version":
                    answer("1.0");
                    break;
                case "game":
                    newGame(words);
                    break;
                case "moves":
                    setMoves(words);
                    break;
                case "genmove":
                    int edge = choose();
                    drawn.add(edge);
                    answer(name(edge));
                    break;
                default:
                    error("unknown command: " + words[0]);
            }
        }
    }

    private void newGame(String[] words) {
        if (words.length < 2 || !words[1].equals("dots")) {
            error("this engine plays dots only");
            return;
        }
        rows = 3;
        cols = 3;
        for (int k = 2; k < words.length; k++) {
            String[] pair = words[k].split("=", 2);
            if (pair.length == 2 && pair[0].equals("rows")) {
                rows = Integer.parseInt(pair[1]);
            } else if (pair.length == 2 && pair[0].equals("cols")) {
                cols = Integer.parseInt(pair[1]);
            }
        }
        drawn = new HashSet<>();
        answer("");
    }

    private void setMoves(String[] words) {
        Set<Integer> edges = new HashSet<>();
        for (int k = 1; k < words.length; k++) {
            int edge = parse(words[k]);
            if (edge < 0) {
                error(words[k] + " is not an edge");
                return;
            }
            edges.add(edge);
        }
        drawn = edges;
        answer("");
    }

    /** 'B3' -> row 1, column 2; -1 unless it is an edge of the board. */
    private int parse(String word) {
        try {
            int i = Character.toUpperCase(word.charAt(0)) - 'A';
            int j = Integer.parseInt(word.substring(1)) - 1;
            boolean inside = i >= 0 && i <= 2 * rows && j >= 0 && j <= 2 * cols;
            return inside && (i + j) % 2 == 1 ? i * 100 + j : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static String name(int edge) {
        return (char) ('A' + edge / 100) + Integer.toString(edge % 100 + 1);
    }

    /** The most sides any box next to `edge` would have once it is drawn. */
    private int sidesAfter(int edge) {
        int i = edge / 100;
        int j = edge % 100;
        int[][] boxes = i % 2 == 0 ? new int[][] {{i - 1, j}, {i + 1, j}}
                                   : new int[][] {{i, j - 1}, {i, j + 1}};
        int most = 0;
        for (int[] box : boxes) {
            int bi = box[0];
            int bj = box[1];
            if (bi > 0 && bi < 2 * rows && bj > 0 && bj < 2 * cols) {
                int sides = 1;
                int[][] around = {{bi - 1, bj}, {bi + 1, bj}, {bi, bj - 1}, {bi, bj + 1}};
                for (int[] side : around) {
                    if (drawn.contains(side[0] * 100 + side[1])) {
                        sides++;
                    }
                }
                most = Math.max(most, sides);
            }
        }
        return most;
    }

    private int choose() {
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i <= 2 * rows; i++) {
            for (int j = 0; j <= 2 * cols; j++) {
                if ((i + j) % 2 == 1 && !drawn.contains(i * 100 + j)) {
                    free.add(i * 100 + j);
                }
            }
        }
        Collections.shuffle(free);
        for (int edge : free) {
            if (sidesAfter(edge) == 4) {
                return edge;
            }
        }
        for (int edge : free) {
            if (sidesAfter(edge) < 3) {
                return edge;
            }
        }
        return free.get(0);
    }

    private static void answer(String text) {
        System.out.print("= " + text + "\n\n");
        System.out.flush();
    }

    private static void error(String text) {
        System.out.print("? " + text + "\n\n");
        System.out.flush();
    }
}
