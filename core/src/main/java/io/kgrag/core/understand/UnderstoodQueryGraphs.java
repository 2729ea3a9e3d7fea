package io.kgrag.core.understand;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * ψ from the question understanding, for a retriever that takes a query graph (SG-RAG): a question with two
 * confident mentions, or whose most confident mention shares a neighbour with another of its mentions, is a
 * multi-constraint star of the mentions the understanding linked (it keeps the question's relation phrases and type
 * word, which the retriever ranks by), unless labelled questions are given and the best-ranked program is the chain they vote
 * for most; any other question gets the best-ranked program's query graph, a chain of one to three hops from its
 * topic whose edges name their relations.
 */
public final class UnderstoodQueryGraphs implements QueryGraphExtractor {
  private final QuestionUnderstanding understanding;
  private final UnaryOperator<QueryGraph> starForm;
  private final ProgramExecutor executor;

  /** Most nodes a walk of the mentions' star visits per step. */
  private static final int WALK_CAP = 200_000;

  /**
   * @param starForm shapes the star of a multi-constraint question for the method that reads it ({@code
   *     UnaryOperator.identity()} for SG-RAG)
   */
  public UnderstoodQueryGraphs(QuestionUnderstanding understanding, UnaryOperator<QueryGraph> starForm) {
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    this.executor = new ProgramExecutor(understanding.graph(), WALK_CAP);
    this.starForm = Objects.requireNonNull(starForm, "starForm");
  }

  /**
   * Whether one node of the graph is adjacent to the question's most confident mention and to another of its
   * mentions: the other mention is then read as a constraint ("the male screenwriter married to X").
   */
  private boolean joinsTopic(List<Mention> mentions) {
    List<Program.Anchor> anchors = QuestionUnderstanding.adjacentToAll(mentions);
    if (anchors.size() < 2) {
      return false;
    }
    ProgramExecutor.Result r = executor.execute(new Program(anchors, Program.Operation.LIST));
    return !r.candidates().isEmpty() && r.candidates().get(0).satisfiedCount() >= 2 && (r.candidates().get(0).satisfied() & 1L) != 0;
  }

  /**
   * The star of the question's mentions as {@link MentionLinker} linked them (the non-overlapping ones, most
   * confident first), with the question's relation phrases and answer-type word ({@link StarQueryGraph}).
   */
  public static QueryGraph star(String question, List<Mention> mentions) {
    List<StarQueryGraph.Leaf> leaves = new ArrayList<>();
    for (Program.Anchor a : QuestionUnderstanding.adjacentToAll(mentions)) {
      Mention m = a.mention();
      leaves.add(new StarQueryGraph.Leaf(m.label(), m.from(), m.to(), m.confidence()));
    }
    return StarQueryGraph.of(question, leaves);
  }

  @Override
  public QueryGraph extract(String question) {
    return candidates(question, 1).get(0);
  }

  /**
   * The question's query graphs, best first: the star alone for a multi-constraint question, else the query graphs
   * of the {@code n} best-ranked programs (for a retriever that tries the next when one matches nothing).
   */
  public List<QueryGraph> candidates(String question, int n) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    QuestionUnderstanding.Understanding u = understanding.intersection(question);
    if (!u.programs().isEmpty()) {
      return List.of(starForm.apply(star(question, u.mentions())));
    }
    boolean weakConstraint = joinsTopic(u.mentions());
    if (weakConstraint && !understanding.hasExemplars()) {
      return List.of(starForm.apply(star(question, u.mentions())));
    }
    u = understanding.understand(question, u.mentions());
    // with labelled questions, a chain they vote for first reads the question better than a weakly linked word
    if (weakConstraint && (u.programs().isEmpty() || u.best().vote() < 1.0)) {
      return List.of(starForm.apply(star(question, u.mentions())));
    }
    if (u.programs().isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no entity of the graph is mentioned in the question");
    }
    List<QueryGraph> out = new ArrayList<>();
    for (QuestionUnderstanding.Scored s : u.programs()) {
      QueryGraph g = s.program().toQueryGraph();
      if (out.size() < n && !out.contains(g)) {
        out.add(g);
      }
    }
    return out;
  }
}
