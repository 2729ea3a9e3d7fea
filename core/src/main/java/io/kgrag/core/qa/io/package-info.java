/**
 * Reading question sets: parsers that turn one decoded record of a question file into a {@link
 * io.kgrag.core.qa.io.QuestionRecord}, with every unreadable record kept as an invalid record and a reason
 * naming its file, line and problem, never dropped or silently repaired.
 *
 * <ul>
 *   <li>{@link io.kgrag.core.qa.io.CsvQuestions}: CSV with a header (ERQA: {@code qid,query,answer}),
 *       RFC 4180 quoting, a whole file at a time because a quoted field may span lines;
 *   <li>{@link io.kgrag.core.qa.io.MetaQaQuestions}: MetaQA {@code question<TAB>a1|a2} lines, with the
 *       bracketed topic entity moved out of the question into {@code meta['topic']} and the question type
 *       from the {@code _qtype.txt} sidecar;
 *   <li>{@link io.kgrag.core.qa.io.JsonlQuestions}: JSON Lines, one question object per line.
 * </ul>
 *
 * <p>All input must be UTF-8; a record holding bytes that are not is invalid with reason {@code not valid
 * UTF-8 at byte N}, the bytes are never replaced. {@link io.kgrag.core.qa.io.QuestionFormat} picks the
 * parser from a file's extension or an explicit format name. The Spark side that feeds these parsers is
 * {@code io.kgrag.jobs.internal.qa.QuestionsInput}.
 */
package io.kgrag.core.qa.io;
