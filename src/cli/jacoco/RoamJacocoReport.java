// What `roam coverage report` runs: JaCoCo's own analyzer over class files and an exec file,
// and with --html JaCoCo's HTML report. Compiled into roam (src/cli/jacoco_report.cc) and run
// with java's single-file source launcher, the JaCoCo and ASM jars on the class path:
//
//   java -cp JARS RoamJacocoReport.java --exec F.exec --name NAME --classfiles DIR...
//        [--sourcefiles DIR...] [--html DIR]
//
// Prints one JSON object on stdout: "total", "packages" and "classes" with JaCoCo's counters
// (instruction, branch, line, method, class: each {"missed", "covered"}), and how the exec data
// met the class files ("exec_classes", "matched", "mismatched", "not_found"). On failure it
// prints one line on stderr and exits 2 when the inputs are at fault, 1 otherwise.
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IBundleCoverage;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ICoverageNode;
import org.jacoco.core.analysis.IPackageCoverage;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.tools.ExecFileLoader;
import org.jacoco.report.DirectorySourceFileLocator;
import org.jacoco.report.FileMultiReportOutput;
import org.jacoco.report.IReportVisitor;
import org.jacoco.report.MultiSourceFileLocator;
import org.jacoco.report.html.HTMLFormatter;

public class RoamJacocoReport {
  static final int TAB_WIDTH = 4;  // as jacococli's report
  static final String SOURCE_ENCODING = "UTF-8";

  // A failure the inputs are to blame for (exit 2).
  static class InputError extends Exception {
    InputError(String message) { super(message); }
  }

  public static void main(String[] args) {
    try {
      run(args);
    } catch (InputError e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } catch (Exception e) {
      System.err.println(chain(e));
      System.exit(1);
    }
  }

  static void run(String[] args) throws Exception {
    File exec = null, html = null;
    String name = "coverage";
    List<File> classfiles = new ArrayList<>(), sourcefiles = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      String flag = args[i], value = args[i + 1];
      switch (flag) {
        case "--exec": exec = new File(value); break;
        case "--name": name = value; break;
        case "--classfiles": classfiles.add(new File(value)); break;
        case "--sourcefiles": sourcefiles.add(new File(value)); break;
        case "--html": html = new File(value); break;
        default: throw new IllegalArgumentException("unknown argument " + flag);
      }
    }
    if (exec == null || classfiles.isEmpty() || args.length % 2 != 0) {
      throw new IllegalArgumentException("usage: --exec FILE --classfiles DIR... [--html DIR]");
    }

    ExecFileLoader loader = new ExecFileLoader();
    try {
      loader.load(exec);
    } catch (IOException e) {
      throw new InputError(exec + ": JaCoCo cannot read it: " + chain(e));
    }
    CoverageBuilder builder = new CoverageBuilder();
    Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
    for (File f : classfiles) {
      try {
        analyzer.analyzeAll(f);
      } catch (IOException e) {  // "Error while analyzing X." with the cause
        throw new InputError(analysisError(e));
      }
    }
    IBundleCoverage bundle = builder.getBundle(name);

    if (html != null) {
      MultiSourceFileLocator locator = new MultiSourceFileLocator(TAB_WIDTH);
      for (File d : sourcefiles) {
        locator.add(new DirectorySourceFileLocator(d, SOURCE_ENCODING, TAB_WIDTH));
      }
      IReportVisitor visitor = new HTMLFormatter().createVisitor(new FileMultiReportOutput(html));
      visitor.visitInfo(loader.getSessionInfoStore().getInfos(),
                        loader.getExecutionDataStore().getContents());
      visitor.visitBundle(bundle, locator);
      visitor.visitEnd();
    }
    System.out.println(toJson(bundle, builder, loader.getExecutionDataStore().getContents()));
  }

  static String toJson(IBundleCoverage bundle, CoverageBuilder builder,
                       Collection<ExecutionData> exec) {
    // How the exec data met the class files: a class of the same name whose id (a CRC64 of the
    // class file) differs is JaCoCo's "does not match"; a name no class file has is not found.
    Map<String, IClassCoverage> analyzed = new HashMap<>();
    for (IClassCoverage c : builder.getClasses()) analyzed.put(c.getName(), c);
    TreeMap<String, Boolean> notFound = new TreeMap<>(), mismatched = new TreeMap<>();
    int matched = 0;
    for (ExecutionData d : exec) {
      IClassCoverage c = analyzed.get(d.getName());
      if (c == null) {
        notFound.put(d.getName(), true);
      } else if (c.getId() != d.getId() || c.isNoMatch()) {
        mismatched.put(d.getName(), true);
      } else {
        matched++;
      }
    }
    StringBuilder out = new StringBuilder("{\"total\":");
    counters(out, bundle);
    out.append(",\"packages\":[");
    List<IPackageCoverage> packages = new ArrayList<>(bundle.getPackages());
    packages.sort((a, b) -> a.getName().compareTo(b.getName()));
    List<IClassCoverage> classes = new ArrayList<>();
    for (int i = 0; i < packages.size(); i++) {
      IPackageCoverage p = packages.get(i);
      classes.addAll(p.getClasses());
      out.append(i == 0 ? "" : ",").append("{\"name\":").append(string(p.getName()));
      out.append(",\"counters\":");
      counters(out, p);
      out.append('}');
    }
    out.append("],\"classes\":[");
    classes.sort((a, b) -> a.getName().compareTo(b.getName()));
    for (int i = 0; i < classes.size(); i++) {
      IClassCoverage c = classes.get(i);
      out.append(i == 0 ? "" : ",").append("{\"name\":").append(string(c.getName()));
      String source = c.getSourceFileName();
      out.append(",\"source\":").append(source == null ? "null" : string(source));
      out.append(",\"counters\":");
      counters(out, c);
      out.append('}');
    }
    out.append("],\"exec_classes\":").append(exec.size());
    out.append(",\"matched\":").append(matched);
    out.append(",\"mismatched\":");
    names(out, mismatched.keySet());
    out.append(",\"not_found\":");
    names(out, notFound.keySet());
    return out.append('}').toString();
  }

  static void counters(StringBuilder out, ICoverageNode n) {
    out.append('{');
    counter(out, "instruction", n.getInstructionCounter()).append(',');
    counter(out, "branch", n.getBranchCounter()).append(',');
    counter(out, "line", n.getLineCounter()).append(',');
    counter(out, "method", n.getMethodCounter()).append(',');
    counter(out, "class", n.getClassCounter()).append('}');
  }

  static StringBuilder counter(StringBuilder out, String name, ICounter c) {
    return out.append('"').append(name).append("\":{\"missed\":").append(c.getMissedCount())
        .append(",\"covered\":").append(c.getCoveredCount()).append('}');
  }

  static void names(StringBuilder out, Collection<String> names) {
    out.append('[');
    boolean first = true;
    for (String n : names) {
      out.append(first ? "" : ",").append(string(n));
      first = false;
    }
    out.append(']');
  }

  // A JSON string in ASCII: what is not ASCII is escaped as UTF-16 units, so the answer reads the
  // same whatever encoding the JVM's stdout has (under LANG=C, "?" for anything else).
  static String string(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch < 0x20 || ch > 0x7e) {
        b.append(String.format("\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    return b.append('"').toString();
  }

  static String analysisError(IOException e) {
    String what = e.getMessage() == null ? "" : e.getMessage();
    if (what.startsWith("Error while analyzing ")) {
      what = what.substring("Error while analyzing ".length()).replaceAll("\\.$", "");
    }
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    String why = chain(cause);
    // CoverageBuilder's refusal of a second class file of the same name and another content.
    String duplicate = "Can't add different class with same name: ";
    if (why.startsWith(duplicate)) {
      return "two different class files of " + why.substring(duplicate.length()) + " in the"
          + " --classfiles folders (" + what + " is the second): give the class folders of one"
          + " build only";
    }
    String hint = "";
    if (why.contains("Unsupported class file major version")) {
      hint = " (class files of a newer Java than this JaCoCo reads: set ROAM_JACOCO_JARS to a"
             + " folder with a newer JaCoCo's jars)";
    }
    return "JaCoCo cannot analyze " + what + ": " + why + hint;
  }

  // "message: cause's message: ...", each named by its class when it has no message.
  static String chain(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      String m = c.getMessage() != null ? c.getMessage() : c.getClass().getSimpleName();
      if (b.length() > 0) b.append(": ");
      b.append(m);
      if (c.getCause() == c) break;
    }
    return b.toString();
  }
}
