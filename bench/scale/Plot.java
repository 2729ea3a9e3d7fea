import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;

/**
 * Draws bench/scale's stages.tsv (size, edges, stage, stage_s, ...) as a PNG: time per stage against graph
 * size, both axes logarithmic, one line per stage. Only the JDK (headless AWT), so the benchmark needs no
 * plotting package:
 *
 * <pre>java bench/scale/Plot.java bench/out/scale/stages.tsv bench/scale/stages.png</pre>
 */
public class Plot {
  private static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
    new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)
  };

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: java Plot.java <stages.tsv> <out.png>");
      System.exit(2);
    }
    Map<String, TreeMap<Double, Double>> series = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      if (f.length < 4 || f[3].isBlank()) {
        continue;
      }
      series.computeIfAbsent(f[2], k -> new TreeMap<>()).put(Double.parseDouble(f[1]), Double.parseDouble(f[3]));
    }
    if (series.isEmpty()) {
      System.err.println("no stage times in " + args[0]);
      System.exit(1);
    }
    double xmin = Double.MAX_VALUE, xmax = 0, ymin = Double.MAX_VALUE, ymax = 0;
    for (TreeMap<Double, Double> s : series.values()) {
      for (Map.Entry<Double, Double> e : s.entrySet()) {
        xmin = Math.min(xmin, e.getKey());
        xmax = Math.max(xmax, e.getKey());
        ymin = Math.min(ymin, Math.max(e.getValue(), 0.1));
        ymax = Math.max(ymax, e.getValue());
      }
    }
    double lx0 = Math.floor(Math.log10(xmin)), lx1 = Math.ceil(Math.log10(xmax));
    double ly0 = Math.floor(Math.log10(ymin)), ly1 = Math.ceil(Math.log10(ymax));
    if (lx1 == lx0) lx1++;
    if (ly1 == ly0) ly1++;

    int w = 960, h = 600, left = 90, right = 200, top = 50, bottom = 70;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    int pw = w - left - right, ph = h - top - bottom;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    // grid and ticks at each power of ten
    for (double lx = lx0; lx <= lx1; lx++) {
      int x = left + (int) Math.round((lx - lx0) / (lx1 - lx0) * pw);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x, top, x, top + ph);
      g.setColor(Color.BLACK);
      String t = tick(Math.pow(10, lx));
      g.drawString(t, x - g.getFontMetrics().stringWidth(t) / 2, top + ph + 18);
    }
    for (double ly = ly0; ly <= ly1; ly++) {
      int y = top + ph - (int) Math.round((ly - ly0) / (ly1 - ly0) * ph);
      g.setColor(new Color(0xdddddd));
      g.drawLine(left, y, left + pw, y);
      g.setColor(Color.BLACK);
      String t = tick(Math.pow(10, ly)) + " s";
      g.drawString(t, left - 8 - g.getFontMetrics().stringWidth(t), y + 4);
    }
    g.setColor(Color.BLACK);
    g.drawRect(left, top, pw, ph);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString("kgrag: time per stage against graph size (2 cores, local mode)", left, top - 18);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.drawString("edges (log scale)", left + pw / 2 - 50, h - 20);
    int i = 0;
    for (Map.Entry<String, TreeMap<Double, Double>> s : series.entrySet()) {
      Color c = COLORS[i % COLORS.length];
      g.setColor(c);
      g.setStroke(new BasicStroke(2.2f));
      List<int[]> pts = new ArrayList<>();
      for (Map.Entry<Double, Double> e : s.getValue().entrySet()) {
        int x = left + (int) Math.round((Math.log10(e.getKey()) - lx0) / (lx1 - lx0) * pw);
        int y = top + ph - (int) Math.round((Math.log10(Math.max(e.getValue(), 0.1)) - ly0) / (ly1 - ly0) * ph);
        pts.add(new int[] {x, y});
      }
      for (int k = 1; k < pts.size(); k++) {
        g.drawLine(pts.get(k - 1)[0], pts.get(k - 1)[1], pts.get(k)[0], pts.get(k)[1]);
      }
      for (int[] p : pts) {
        g.fillOval(p[0] - 4, p[1] - 4, 8, 8);
      }
      int ly = top + 20 + i * 22;
      g.drawLine(left + pw + 20, ly - 4, left + pw + 45, ly - 4);
      g.setColor(Color.BLACK);
      g.drawString(s.getKey(), left + pw + 52, ly);
      i++;
    }
    g.dispose();
    ImageIO.write(img, "png", new File(args[1]));
    System.err.println("wrote " + args[1]);
  }

  private static String tick(double v) {
    if (v >= 1e6) return String.format(Locale.ROOT, "%.0fM", v / 1e6);
    if (v >= 1e3) return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    if (v >= 1) return String.format(Locale.ROOT, "%.0f", v);
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
