//! Unification with messages: a clash names the variable and both uses.

use super::*;

impl<'a> Checker<'a, '_> {
    /// `subject`, written at `span` with type `have`, must have type `want`.
    pub(super) fn unify_with(
        &mut self,
        subject: &Subject,
        span: &Span,
        have: TyId,
        want: TyId,
    ) -> Result<(), Diagnostic> {
        match self.types.unify(have, want) {
            Ok(()) => {
                if self.types.lacks_evidence(have) {
                    if let Some(name) = subject.name() {
                        self.types.note_evidence(
                            have,
                            Evidence {
                                span: span.clone(),
                                subject: Some(name),
                                declared: false,
                            },
                        );
                    }
                }
                Ok(())
            }
            Err(Clash::Types) => Err(self.conflict(subject, span, have, want)),
            Err(Clash::Restricted(restriction, found)) => {
                let mut error =
                    self.error(restriction.span.clone(), restriction.reason.message(&found));
                if *span != restriction.span {
                    let what = subject.name().unwrap_or_else(|| "this".into());
                    error
                        .notes
                        .push((format!("{what} is used as {found} here"), span.clone()));
                }
                Err(error)
            }
        }
    }

    /// `ty` obeys the rule `reason`, imposed at `span`.
    pub(super) fn restrict(
        &mut self,
        ty: TyId,
        reason: Reason<'a>,
        span: &Span,
        subject: &Subject,
    ) -> Result<(), Diagnostic> {
        if self.types.obeys_for_good(ty, &reason) {
            return Ok(());
        }
        let rule = self.types.restricted(Restriction {
            reason,
            span: span.clone(),
        });
        self.unify_with(subject, span, ty, rule)
    }

    /// "`x` is used as int at 3:5 and as bool at 4:9", with the other use as a note.
    pub(super) fn conflict(
        &mut self,
        subject: &Subject,
        span: &Span,
        have: TyId,
        want: TyId,
    ) -> Diagnostic {
        let (have_type, want_type) = (self.types.describe(have), self.types.describe(want));
        let (have_evidence, want_evidence) = (self.types.evidence(have), self.types.evidence(want));
        let here = self.at(span);
        let mut notes = Vec::new();
        let message = match (subject.name(), &have_evidence) {
            (Some(name), Some(evidence)) if evidence.subject.as_ref() == Some(&name) => {
                let there = self.at(&evidence.span);
                if evidence.declared {
                    notes.push((format!("{name} is declared here"), evidence.span.clone()));
                    format!("{name} is declared as {have_type} at {there} but used as {want_type} at {here}")
                } else {
                    notes.push((
                        format!("{name} is used as {have_type} here"),
                        evidence.span.clone(),
                    ));
                    if evidence.span.start <= span.start {
                        format!(
                            "{name} is used as {have_type} at {there} and as {want_type} at {here}"
                        )
                    } else {
                        format!(
                            "{name} is used as {want_type} at {here} and as {have_type} at {there}"
                        )
                    }
                }
            }
            (Some(name), _) => {
                notes.extend(
                    have_evidence
                        .as_ref()
                        .map(|evidence| Self::explain(evidence, &have_type)),
                );
                format!("{name} is used as {want_type} at {here} but has type {have_type}")
            }
            (None, _) => {
                notes.extend(
                    have_evidence
                        .as_ref()
                        .map(|evidence| Self::explain(evidence, &have_type)),
                );
                format!("expected {want_type}, found {have_type}")
            }
        };
        if let Some(evidence) = want_evidence {
            if evidence.span != *span && notes.iter().all(|(_, at)| *at != evidence.span) {
                notes.push(Self::explain(&evidence, &want_type));
            }
        }
        let mut error = self.error(span.clone(), message);
        error.notes = notes;
        error
    }

    /// A note pointing at the evidence for type `ty`.
    pub(super) fn explain(evidence: &Evidence, ty: &str) -> (String, Span) {
        let text = match (&evidence.subject, evidence.declared) {
            (Some(subject), true) => format!("{subject} is declared as {ty} here"),
            (Some(subject), false) => format!("{subject} is used as {ty} here"),
            (None, _) => format!("this is {ty}"),
        };
        (text, evidence.span.clone())
    }
}
