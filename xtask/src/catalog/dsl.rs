//! Reader for the catalog's text format (`crates/ptxkit/isa/*.ptxisa`).
//!
//! The format stays close to the ISA's syntax boxes so that an entry can be
//! checked against the spec by eye. See `docs/catalog.md` for the full
//! description; in short:
//!
//! ```text
//! # comment
//! @opcode add section=9.7.1.1 ptx=1.0 sm=all
//! @note Adds two integers.
//! add.type       d, a, b;
//! add{.sat}.s32  d, a, b;
//! add.u16x2      d, a, b;  [ptx=8.0 sm=sm_90]
//! .type = { .u16, .u32, .u64, .s16, .s32, .s64 };
//! @gate .u16x2 .s16x2 ptx=8.0 sm=sm_90
//! @mod .sat clamps the result to the signed 32-bit range.
//! ```
//!
//! Errors are collected with their file and line; a test asserts there are none.

use rustc_hash::FxHashMap;

use ptxkit::isa::*;
use ptxkit::lex::{Lexer, Token, TokenKind};

/// A problem in a catalog file.
#[derive(Clone, Debug)]
pub struct DslError {
    /// Catalog file name.
    pub file: &'static str,
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for DslError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// A string kept for the rest of the process. A catalog read at run time
/// (tests, `xtask catalog-check`) lives as long as the built-in one, which is
/// static data (see `generated.rs`).
fn leak(s: &str) -> &'static str {
    Box::leak(Box::from(s))
}

/// A list kept for the rest of the process; see [`leak`].
fn leak_vec<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// Tables under construction.
#[derive(Default)]
pub(crate) struct Builder {
    pub mods: Vec<&'static str>,
    pub mod_index: FxHashMap<&'static str, ModId>,
    /// Opcode roots and, for each, its forms (filled as blocks are read).
    pub opcodes: Vec<(&'static str, Vec<FormId>)>,
    pub opcode_index: FxHashMap<&'static str, OpcodeId>,
    pub forms: Vec<Form>,
    pub groups: Vec<Group>,
    pub sections: Vec<Section>,
    /// Operand role descriptions, indexed by [`RoleId`].
    pub roles: Vec<RoleSpec>,
    /// Special registers.
    pub sregs: Vec<SpecialReg>,
    /// `@repeatable` modifiers, by spelling (resolved once every file is read).
    pub repeatable: Vec<String>,
    pub errors: Vec<DslError>,
}

impl Builder {
    pub fn intern_mod(&mut self, s: &str) -> ModId {
        if let Some(&id) = self.mod_index.get(s) {
            return id;
        }
        let id = ModId(self.mods.len() as u16);
        let s = leak(s);
        self.mods.push(s);
        self.mod_index.insert(s, id);
        id
    }

    fn opcode(&mut self, root: &str) -> OpcodeId {
        if let Some(&id) = self.opcode_index.get(root) {
            return id;
        }
        let id = OpcodeId(self.opcodes.len() as u16);
        let root = leak(root);
        self.opcodes.push((root, Vec::new()));
        self.opcode_index.insert(root, id);
        id
    }

    /// Read one catalog file.
    pub fn load(&mut self, file: &'static str, text: &str) {
        let mut block: Option<Block> = None;
        let mut pending = String::new();
        let mut pending_line = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = strip_hash_comment(raw);
            let trimmed = line.trim();
            if trimmed.starts_with('@') {
                if !pending.trim().is_empty() {
                    self.err(file, pending_line, "statement not terminated by `;`");
                    pending.clear();
                }
                self.directive(file, line_no, trimmed, &mut block);
                continue;
            }
            if trimmed.is_empty() && pending.trim().is_empty() {
                continue;
            }
            if pending.trim().is_empty() {
                pending.clear();
                pending_line = line_no;
            }
            pending.push_str(line);
            pending.push('\n');
            // Split off every complete statement (`;` at depth 0, plus a
            // trailing `[ptx=… sm=…]` attribute on the same line).
            while let Some((stmt, rest)) = split_statement(&pending) {
                match block.as_mut() {
                    Some(b) => b.stmts.push((pending_line, stmt)),
                    None => self.err(file, pending_line, "statement before any `@opcode`"),
                }
                pending = rest;
                pending_line = line_no;
            }
        }
        if !pending.trim().is_empty() {
            self.err(file, pending_line, "statement not terminated by `;`");
        }
        if let Some(b) = block.take() {
            self.finish_block(file, b);
        }
    }

    fn err(&mut self, file: &'static str, line: usize, message: impl Into<String>) {
        self.errors.push(DslError {
            file,
            line,
            message: message.into(),
        });
    }

    fn directive(
        &mut self,
        file: &'static str,
        line: usize,
        text: &str,
        block: &mut Option<Block>,
    ) {
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        match word {
            "@opcode" => {
                if let Some(b) = block.take() {
                    self.finish_block(file, b);
                }
                let mut parts = rest.split_whitespace();
                let Some(name) = parts.next() else {
                    return self.err(file, line, "`@opcode` needs a name");
                };
                let mut b = Block {
                    words: Vec::new(),
                    loose: Vec::new(),
                    name: name.to_string(),
                    line,
                    sections: Vec::new(),
                    req: Requirement::default(),
                    stmts: Vec::new(),
                    gates: Vec::new(),
                    notes: Vec::new(),
                    mod_notes: Vec::new(),
                    operands: Vec::new(),
                    counts: Vec::new(),
                    flags: Flags::default(),
                    rules: Vec::new(),
                };
                for kv in parts {
                    match kv.split_once('=') {
                        Some(("section", v)) => b.sections.extend(v.split(',').map(leak)),
                        Some((k, v)) => {
                            if let Err(e) = set_req(&mut b.req, k, v) {
                                self.err(file, line, e);
                            }
                        }
                        None => self.err(file, line, format!("expected key=value, found `{kv}`")),
                    }
                }
                *block = Some(b);
            }
            "@sreg" => self.sreg(file, line, rest),
            "@repeatable" => self
                .repeatable
                .extend(rest.split_whitespace().map(str::to_string)),
            "@word" | "@loose" => {
                let Some(b) = block.as_mut() else {
                    return self.err(file, line, format!("`{word}` before any `@opcode`"));
                };
                for w in rest.split_whitespace() {
                    if !w.starts_with('.') {
                        self.err(file, line, format!("`{word}` takes modifiers, not `{w}`"));
                    }
                    let list = if word == "@word" {
                        &mut b.words
                    } else {
                        &mut b.loose
                    };
                    list.push(w.to_string());
                }
            }
            "@operand" | "@count" | "@flags" | "@rule" => {
                let Some(b) = block.as_mut() else {
                    return self.err(file, line, format!("`{word}` before any `@opcode`"));
                };
                match word {
                    "@operand" => b.operands.push((line, rest.to_string())),
                    "@count" => b.counts.push((line, rest.to_string())),
                    "@rule" => b.rules.push((line, rest.to_string())),
                    _ => {
                        for f in rest.split_whitespace() {
                            match Flags::NAMES.iter().find(|(n, _)| *n == f) {
                                Some((_, v)) => b.flags.0 |= v.0,
                                None => self.err(file, line, format!("unknown flag `{f}`")),
                            }
                        }
                    }
                }
            }
            "@gate" | "@note" | "@mod" => {
                let Some(b) = block.as_mut() else {
                    return self.err(file, line, format!("`{word}` before any `@opcode`"));
                };
                match word {
                    "@note" => b.notes.push(leak(rest)),
                    "@mod" => {
                        let (m, txt) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                        b.mod_notes
                            .push((line, m.to_string(), txt.trim().to_string()));
                    }
                    _ => {
                        let mut mods = Vec::new();
                        let mut req = Requirement::default();
                        for part in rest.split_whitespace() {
                            if let Some((k, v)) = part.split_once('=') {
                                if let Err(e) = set_req(&mut req, k, v) {
                                    self.err(file, line, e);
                                }
                            } else if part.starts_with('.') {
                                mods.push(part.trim_end_matches(',').to_string());
                            } else {
                                self.err(file, line, format!("unexpected `{part}` in @gate"));
                            }
                        }
                        if mods.is_empty() || req.is_empty() {
                            self.err(file, line, "@gate needs modifiers and ptx= or sm=");
                        }
                        b.gates.push((line, mods, req));
                    }
                }
            }
            _ => self.err(file, line, format!("unknown directive `{word}`")),
        }
    }

    /// How many leading `slots` spell the instruction's name: the parts of
    /// the section's name after the root, up to an `@loose` one, and any
    /// slot whose modifier or group `@word` names.
    fn head(&self, b: &Block, groups: &FxHashMap<String, GroupId>, slots: &[Slot]) -> u8 {
        let mut parts = b.name.split('.').skip(1).peekable();
        let mut head = 0u8;
        for slot in slots {
            let text = match slot.kind {
                SlotKind::Lit(m) => self.mods.get(m.0 as usize).copied().unwrap_or(""),
                SlotKind::Group(_) => "",
            };
            let named = parts
                .peek()
                .is_some_and(|p| text.strip_prefix('.') == Some(*p));
            let word = b.words.iter().any(|w| match slot.kind {
                SlotKind::Lit(_) => w == text,
                SlotKind::Group(g) => groups.get(w) == Some(&g),
            });
            if named && b.loose.iter().any(|l| l == text) {
                break;
            }
            if named {
                parts.next();
            } else if !word {
                break;
            }
            head = head.saturating_add(1);
        }
        head
    }

    fn finish_block(&mut self, file: &'static str, b: Block) {
        let section = self.sections.len() as u16;
        let root = b.name.split('.').next().unwrap_or_default().to_string();
        let opcode = self.opcode(&root);
        // First pass: group definitions, so forms may use groups defined after them.
        let mut groups: FxHashMap<String, GroupId> = FxHashMap::default();
        let mut operand_values = Vec::new();
        let mut forms = Vec::new();
        for (line, stmt) in &b.stmts {
            let toks = lex_stmt(stmt);
            let first = toks.first().map(|t| (t.kind, t.text.as_str()));
            // A definition is `name =` (possibly chained: `.a = .b = {…}`).
            let is_def = toks.get(1).is_some_and(|t| t.kind == TokenKind::Eq);
            match first {
                Some((TokenKind::DotWord | TokenKind::Ident, _)) if is_def => {
                    match self.group_def(&toks) {
                        Ok((names, alts, is_values)) => {
                            for n in names {
                                if is_values {
                                    operand_values.push((
                                        leak(&n),
                                        leak_vec(alts.iter().map(|s| leak(s)).collect()),
                                    ));
                                    continue;
                                }
                                let ids: Vec<ModId> = alts
                                    .iter()
                                    .filter(|a| !a.contains('['))
                                    .map(|a| self.intern_mod(a))
                                    .collect();
                                let patterns = alts
                                    .iter()
                                    .filter(|a| a.contains('['))
                                    .map(|a| leak(a))
                                    .collect();
                                let gid = GroupId(self.groups.len() as u16);
                                self.groups.push(Group {
                                    name: leak(n.trim_start_matches('.')),
                                    alts: leak_vec(ids),
                                    patterns: leak_vec(patterns),
                                });
                                if groups.insert(n.clone(), gid).is_some() {
                                    self.err(
                                        file,
                                        *line,
                                        format!("group `{n}` defined twice in `{}`", b.name),
                                    );
                                }
                            }
                        }
                        Err(e) => self.err(file, *line, e),
                    }
                }
                Some((TokenKind::Ident, w)) if w == root => {
                    forms.push((*line, stmt.as_str(), toks))
                }
                _ => self.err(
                    file,
                    *line,
                    format!("expected a form of `{root}` or a group definition"),
                ),
            }
        }
        let roles = self.role_specs(file, &b, &groups);
        for (line, text, toks) in forms {
            match FormParser::new(&toks, &groups, &roles, self).form() {
                Ok((slots, operands, req)) => {
                    let id = FormId(self.forms.len() as u16);
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let head = self.head(&b, &groups, &slots);
                    self.forms.push(Form {
                        opcode,
                        section,
                        name: leak(&b.name),
                        head,
                        slots: leak_vec(slots),
                        operands: leak_vec(operands),
                        req,
                        text: leak(&text),
                    });
                    if let Some(op) = self.opcodes.get_mut(opcode.0 as usize) {
                        op.1.push(id);
                    }
                }
                Err(e) => self.err(file, line, format!("in form of `{}`: {e}", b.name)),
            }
        }
        let mut gates = Vec::new();
        for (_line, names, req) in b.gates {
            let mut mods = Vec::new();
            for n in names {
                match groups.get(&n) {
                    Some(g) => mods.extend(
                        self.groups
                            .get(g.0 as usize)
                            .map(|g| g.alts.to_vec())
                            .unwrap_or_default(),
                    ),
                    None => mods.push(self.intern_mod(&n)),
                }
            }
            gates.push(Gate {
                mods: leak_vec(mods),
                req,
            });
        }
        let rules = self.rules(
            file,
            &b.rules,
            &groups,
            &forms_of_section(&self.forms, section),
        );
        let mut mod_notes = Vec::new();
        for (_line, m, txt) in b.mod_notes {
            let id = self.intern_mod(&m);
            mod_notes.push((id, leak(&txt)));
        }
        self.sections.push(Section {
            name: leak(&b.name),
            isa_sections: leak_vec(b.sections),
            req: b.req,
            gates: leak_vec(gates),
            notes: leak_vec(b.notes),
            mod_notes: leak_vec(mod_notes),
            operand_values: leak_vec(operand_values),
            file,
            flags: b.flags,
            rules: leak_vec(rules),
        });
        let _ = b.line;
    }

    /// The block's `@rule` lines. A literal modifier an atom names must
    /// be one that a form of the section can carry (catches misspellings).
    fn rules(
        &mut self,
        file: &'static str,
        lines: &[(usize, String)],
        groups: &FxHashMap<String, GroupId>,
        forms: &[Form],
    ) -> Vec<Rule> {
        let mut known: Vec<ModId> = Vec::new();
        for f in forms {
            for slot in f.slots {
                match slot.kind {
                    SlotKind::Lit(m) => known.push(m),
                    SlotKind::Group(g) => {
                        if let Some(g) = self.groups.get(g.0 as usize) {
                            known.extend_from_slice(g.alts);
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (line, text) in lines {
            // An optional message in quotes ends the rule.
            let (text, message) = match text.split_once('"') {
                Some((rule, msg)) => match msg.trim_end().strip_suffix('"') {
                    Some(m) if !m.contains('"') && !m.trim().is_empty() => (rule, m.trim()),
                    _ => {
                        self.err(
                            file,
                            *line,
                            "@rule message: one `\"…\"` at the end of the line",
                        );
                        continue;
                    }
                },
                None => (text.as_str(), ""),
            };
            let Some((when, need)) = text.split_once("=>") else {
                self.err(file, *line, "@rule needs `WHEN… => NEED…`");
                continue;
            };
            let mut bad = Vec::new();
            let mut atom = |word: &str, bad: &mut Vec<String>| -> Option<Atom> {
                let (neg, word) = match word.strip_prefix('!') {
                    Some(w) => (true, w),
                    None => (false, word),
                };
                let kind = match word.split_once('=') {
                    Some((g, m)) => {
                        let Some(&g) = groups.get(g) else {
                            bad.push(format!("`{g}` is not a group of this section"));
                            return None;
                        };
                        let m = self.intern_mod(m);
                        if !self
                            .groups
                            .get(g.0 as usize)
                            .is_some_and(|x| x.alts.contains(&m))
                        {
                            bad.push(format!("`{word}`: not an alternative of the group"));
                            return None;
                        }
                        AtomKind::GroupIs(g, m)
                    }
                    None => match groups.get(word) {
                        Some(&g) => AtomKind::Group(g),
                        None if word.starts_with('.') => {
                            let m = self.intern_mod(word);
                            if !known.contains(&m) {
                                bad.push(format!("no form of the section takes `{word}`"));
                                return None;
                            }
                            AtomKind::Mod(m)
                        }
                        None => {
                            bad.push(format!("`{word}` is not a modifier"));
                            return None;
                        }
                    },
                };
                Some(Atom { neg, kind })
            };
            let when: Vec<Atom> = when
                .split_whitespace()
                .filter_map(|w| atom(w, &mut bad))
                .collect();
            let need: Vec<&'static [Atom]> = need
                .split_whitespace()
                .map(|clause| {
                    leak_vec(
                        clause
                            .split('|')
                            .filter_map(|w| atom(w, &mut bad))
                            .collect(),
                    )
                })
                .collect();
            if bad.is_empty() && (when.is_empty() || need.is_empty()) {
                bad.push("@rule needs atoms on both sides of `=>`".into());
            }
            if bad.is_empty() {
                out.push(Rule {
                    when: leak_vec(when),
                    need: leak_vec(need),
                    text: leak(&text.split_whitespace().collect::<Vec<_>>().join(" ")),
                    message: leak(message),
                });
            } else {
                for b in bad {
                    self.err(file, *line, format!("in @rule: {b}"));
                }
            }
        }
        out
    }

    /// The block's `@operand` and `@count` lines as role descriptions,
    /// added to [`Builder::roles`]; the map from role name to id.
    fn role_specs(
        &mut self,
        file: &'static str,
        b: &Block,
        groups: &FxHashMap<String, GroupId>,
    ) -> FxHashMap<String, RoleId> {
        let mut out: FxHashMap<String, RoleId> = FxHashMap::default();
        for (line, text) in &b.operands {
            match parse_role(text, groups) {
                Ok((names, spec)) => {
                    for n in names {
                        let id = RoleId(self.roles.len() as u16);
                        self.roles.push(RoleSpec {
                            role: leak(&n),
                            ..spec
                        });
                        if out.insert(n.clone(), id).is_some() {
                            self.err(file, *line, format!("role `{n}` described twice"));
                        }
                    }
                }
                Err(e) => self.err(file, *line, format!("in @operand: {e}")),
            }
        }
        // `at-most=ROLE` names a role of the same block that takes constants.
        for (line, text) in &b.operands {
            let Ok((names, spec)) = parse_role(text, groups) else {
                continue;
            };
            let Some(bound) = spec.at_most else { continue };
            let takes_constants = out
                .get(bound)
                .and_then(|id| self.roles.get(id.0 as usize))
                .is_some_and(|r| r.kinds.has(Kinds::IMM));
            if !takes_constants {
                let role = names.join(",");
                self.err(
                    file,
                    *line,
                    format!(
                        "`{role}` at-most=`{bound}`: no role of that name takes constants here"
                    ),
                );
            }
        }
        // `@count ROLE N .mod…`: rows of the role's arity table, in order.
        let mut tables: FxHashMap<String, Vec<(u8, &'static [ModId])>> = FxHashMap::default();
        for (line, text) in &b.counts {
            let mut parts = text.split_whitespace();
            let (Some(role), Some(n)) = (parts.next(), parts.next().and_then(|n| n.parse().ok()))
            else {
                self.err(file, *line, "@count needs a role and a number");
                continue;
            };
            if !out.contains_key(role) {
                self.err(
                    file,
                    *line,
                    format!("@count for `{role}`, which no @operand describes"),
                );
                continue;
            }
            let mods: Vec<ModId> = parts.map(|m| self.intern_mod(m)).collect();
            tables
                .entry(role.to_string())
                .or_default()
                .push((n, leak_vec(mods)));
        }
        for (role, rows) in tables {
            if let Some(r) = out
                .get(&role)
                .and_then(|id| self.roles.get_mut(id.0 as usize))
            {
                r.arity = Arity::Table(leak_vec(rows));
            }
        }
        out
    }

    /// `@sreg %name[<N>] .type {.x .y .z} {widths=16,…} {ptx=X.Y} {sm=…}`
    fn sreg(&mut self, file: &'static str, line: usize, text: &str) {
        let mut parts = text.split_whitespace();
        let Some(name) = parts.next().filter(|n| n.starts_with('%')) else {
            return self.err(file, line, "@sreg needs a `%name`");
        };
        let (name, count) = match name.split_once('<') {
            Some((n, c)) => match c.strip_suffix('>').and_then(|c| c.parse().ok()) {
                Some(c) => (n, c),
                None => return self.err(file, line, format!("bad count in `{name}`")),
            },
            None => (name, 0),
        };
        let Some(ty) = parts
            .next()
            .and_then(ptxkit::isa::vocab::ScalarType::from_spelling)
        else {
            return self.err(file, line, "@sreg needs a type after the name");
        };
        let mut components = Vec::new();
        let mut req = Requirement::default();
        let mut widths = 0u8;
        for p in parts {
            if let Some(c) = p.strip_prefix('.') {
                components.push(leak(c));
            } else if let Some(v) = p.strip_prefix("widths=") {
                for w in v.split(',') {
                    match w.parse().ok().and_then(SpecialReg::width_bit) {
                        Some(b) => widths |= b,
                        None => self.err(file, line, format!("bad width `{w}`")),
                    }
                }
            } else if let Some((k, v)) = p.split_once('=') {
                if let Err(e) = set_req(&mut req, k, v) {
                    self.err(file, line, e);
                }
            } else {
                self.err(file, line, format!("unexpected `{p}` in @sreg"));
            }
        }
        self.sregs.push(SpecialReg {
            name: leak(name),
            count,
            ty,
            components: leak_vec(components),
            req,
            widths,
        });
    }

    /// `.a = .b = { .x, .y };` or `cp-size = { 4, 8, 16 };`
    fn group_def(&mut self, toks: &[Tok]) -> Result<(Vec<String>, Vec<String>, bool), String> {
        let mut names = Vec::new();
        let mut i = 0;
        let mut is_values = false;
        while let (Some(name), Some(eq)) = (toks.get(i), toks.get(i + 1)) {
            if eq.kind != TokenKind::Eq {
                break;
            }
            match name.kind {
                TokenKind::DotWord => names.push(name.text.clone()),
                TokenKind::Ident => {
                    is_values = true;
                    names.push(name.text.clone());
                }
                _ => return Err(format!("bad group name `{}`", name.text)),
            }
            i += 2;
        }
        if toks.get(i).map(|t| t.kind) != Some(TokenKind::LBrace) {
            return Err("expected `{` after `=`".into());
        }
        i += 1;
        let mut alts = Vec::new();
        loop {
            match toks.get(i) {
                Some(t) if t.kind == TokenKind::RBrace => break,
                Some(t) if t.kind == TokenKind::Comma => i += 1,
                // `imm-scale-a = { -1, 1 };`: a negative integer.
                Some(t) if is_values && t.kind == TokenKind::Minus => match toks.get(i + 1) {
                    Some(n) if n.kind == TokenKind::Int && !n.spaced => {
                        alts.push(format!("-{}", n.text));
                        i += 2;
                    }
                    _ => return Err("`-` not before an integer in a value set".into()),
                },
                Some(t) if t.kind == TokenKind::DotWord && !is_values => {
                    // `.b[0-7][0-7]`: a pattern, glued tokens up to a space or `,`.
                    let mut text = t.text.clone();
                    i += 1;
                    while let Some(n) = toks.get(i).filter(|n| {
                        !n.spaced && !matches!(n.kind, TokenKind::Comma | TokenKind::RBrace)
                    }) {
                        text.push_str(&n.text);
                        i += 1;
                    }
                    alts.push(text);
                }
                Some(t)
                    if is_values
                        && matches!(
                            t.kind,
                            TokenKind::Int
                                | TokenKind::Float
                                | TokenKind::Ident
                                | TokenKind::DotWord
                        ) =>
                {
                    alts.push(t.text.clone());
                    i += 1;
                }
                Some(t) => return Err(format!("unexpected `{}` in group", t.text)),
                None => return Err("unterminated group".into()),
            }
        }
        let rest = toks.get(i + 1..).unwrap_or_default();
        if !(rest.is_empty() || (rest.len() == 1 && rest.iter().all(|t| t.kind == TokenKind::Semi)))
        {
            return Err("unexpected text after `}`".into());
        }
        if alts.is_empty() {
            return Err("empty group".into());
        }
        Ok((names, alts, is_values))
    }
}

struct Block {
    /// `@word` modifiers and groups: slots that belong to the instruction's
    /// name ([`Form::head`]).
    words: Vec<String>,
    /// `@loose` parts of the section's name: ptxas takes them anywhere
    /// among the modifiers (`shfl.bfly.sync`), so the name ends before them.
    loose: Vec<String>,
    /// `@operand` lines (line, text after the word).
    operands: Vec<(usize, String)>,
    /// `@count` lines.
    counts: Vec<(usize, String)>,
    flags: Flags,
    name: String,
    line: usize,
    sections: Vec<&'static str>,
    req: Requirement,
    stmts: Vec<(usize, String)>,
    gates: Vec<(usize, Vec<String>, Requirement)>,
    notes: Vec<&'static str>,
    mod_notes: Vec<(usize, String, String)>,
    /// `@rule` lines (line, text after the word).
    rules: Vec<(usize, String)>,
}

/// The forms already built for section `section`.
fn forms_of_section(forms: &[Form], section: u16) -> Vec<Form> {
    forms
        .iter()
        .filter(|f| f.section == section)
        .copied()
        .collect()
}

fn set_req(req: &mut Requirement, k: &str, v: &str) -> Result<(), String> {
    let version = |v: &str| -> Result<PtxVersion, String> {
        let (a, b) = v
            .split_once('.')
            .ok_or_else(|| format!("bad ptx version `{v}`"))?;
        let major = a.parse().map_err(|_| format!("bad ptx version `{v}`"))?;
        let minor = b.parse().map_err(|_| format!("bad ptx version `{v}`"))?;
        Ok(PtxVersion { major, minor })
    };
    match k {
        "ptx" => {
            req.ptx = Some(version(v)?);
            Ok(())
        }
        "until_ptx" => {
            req.until_ptx = Some(version(v)?);
            Ok(())
        }
        "until_sm" => {
            // One plain target: the bound is on its number.
            let ok = v
                .strip_prefix("sm_")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
            if !ok {
                return Err(format!("bad until_sm target `{v}` (one plain sm_NN)"));
            }
            req.until_sm = Some(leak(v));
            Ok(())
        }
        "sm" => {
            for item in v.split('|') {
                // `sm_89@8.1`: that target from that version on.
                let (t, since) = match item.split_once('@') {
                    Some((t, s)) => (t, Some(s)),
                    None => (item, None),
                };
                if since.is_some_and(|s| ptxkit::isa::PtxVersion::parse(s).is_none()) {
                    return Err(format!("bad version in target `{item}`"));
                }
                let ok = t == "all"
                    || t.strip_prefix("sm_").is_some_and(|n| {
                        let digits = n.trim_end_matches(['a', 'f']);
                        !digits.is_empty()
                            && digits.bytes().all(|c| c.is_ascii_digit())
                            && n.len() - digits.len() <= 1
                    });
                if !ok {
                    return Err(format!("bad target `{t}`"));
                }
            }
            req.sm = Some(leak(v));
            Ok(())
        }
        "opt" => {
            if v.is_empty() || !v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
                return Err(format!("bad .target option `{v}`"));
            }
            req.opt = Some(leak(v));
            Ok(())
        }
        "until_opt" => {
            if v.is_empty() || !v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
                return Err(format!("bad .target option `{v}`"));
            }
            req.until_opt = Some(leak(v));
            Ok(())
        }
        _ => Err(format!("unknown key `{k}`")),
    }
}

/// `ROLE{,ROLE} DIR KIND{,KIND} {TYPE{|TYPE}} {key=value}…`: the roles
/// it names and what they take.
fn parse_role(
    text: &str,
    groups: &FxHashMap<String, GroupId>,
) -> Result<(Vec<String>, RoleSpec), String> {
    let mut parts = text.split_whitespace();
    let names: Vec<String> = parts
        .next()
        .ok_or("no role")?
        .split(',')
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect();
    let dir = match parts.next() {
        Some("in") => Dir::In,
        Some("out") => Dir::Out,
        Some("inout") => Dir::InOut,
        other => return Err(format!("expected in, out or inout, found {other:?}")),
    };
    let mut kinds = Kinds::default();
    for k in parts.next().ok_or("no kinds")?.split(',') {
        let (_, v) = Kinds::NAMES
            .iter()
            .find(|(n, _)| *n == k)
            .ok_or_else(|| format!("unknown kind `{k}`"))?;
        kinds = kinds.with(*v);
    }
    let group = |g: &str| {
        groups
            .get(g)
            .copied()
            .ok_or_else(|| format!("`{g}` is not a group of this section"))
    };
    let mut spec = RoleSpec {
        role: "",
        dir,
        kinds,
        types: &[],
        arity: Arity::Scalar,
        wider: false,
        wider_max: 0,
        range: None,
        multiple: 0,
        at_most: None,
        pred_on: &[],
        consts_on: &[],
        mov_on: &[],
        typed_on: &[],
        untyped_on: &[],
        lax_min: false,
        spaces: &[],
    };
    for p in parts {
        if p.starts_with('.') {
            let mut types = Vec::new();
            for t in p.split('|') {
                let r = if let Some(g) = t.strip_suffix("*2") {
                    TypeRef::Double(group(g)?)
                } else if let Some(g) = t.strip_suffix("/2") {
                    TypeRef::Half(group(g)?)
                } else if let Some(&g) = groups.get(t) {
                    TypeRef::Group(g)
                } else if let Some(ty) = ptxkit::isa::vocab::ScalarType::from_spelling(t) {
                    TypeRef::Fixed(ty)
                } else {
                    return Err(format!(
                        "`{t}` is neither a group of this section nor a type"
                    ));
                };
                types.push(r);
            }
            spec.types = leak_vec(types);
            continue;
        }
        match p.split_once('=') {
            None if p == "wider" => spec.wider = true,
            Some(("wider", v)) => {
                spec.wider = true;
                spec.wider_max = v.parse().map_err(|_| format!("bad wider=`{v}`"))?;
            }
            Some(("vec", v)) => {
                spec.arity = match v {
                    "any" => Arity::Any,
                    "list" => Arity::List,
                    "scalar" => Arity::Scalar,
                    _ if v.starts_with('.') && v.ends_with("|scalar") => {
                        Arity::GroupOrScalar(group(v.trim_end_matches("|scalar"))?)
                    }
                    _ if v.starts_with('.') => Arity::Group(group(v)?),
                    _ => Arity::Fixed(v.parse().map_err(|_| format!("bad vec=`{v}`"))?),
                }
            }
            Some(("range", v)) => {
                let (lo, hi) = v.split_once("..").ok_or("range=LO..HI")?;
                let lo = lo.parse().map_err(|_| format!("bad range `{v}`"))?;
                let hi = hi.parse().map_err(|_| format!("bad range `{v}`"))?;
                spec.range = Some((lo, hi));
            }
            Some(("mult", v)) => {
                spec.multiple = v.parse().map_err(|_| format!("bad mult=`{v}`"))?;
            }
            Some(("at-most", v)) => {
                if !kinds.has(Kinds::IMM) {
                    return Err("at-most= is for a role that takes constants (`imm`)".into());
                }
                if v.is_empty() || names.iter().any(|n| *n == v) {
                    return Err(format!("at-most=`{v}` must name another role"));
                }
                spec.at_most = Some(leak(v));
            }
            Some(("pred-on", v)) => spec.pred_on = leak_vec(parse_sm_ranges(v)?),
            Some(("mov-on", v)) => spec.mov_on = leak_vec(parse_sm_ranges(v)?),
            Some(("typed-on", v)) => spec.typed_on = leak_vec(parse_sm_ranges(v)?),
            Some(("untyped-on", v)) => spec.untyped_on = leak_vec(parse_sm_ranges(v)?),
            Some(("sampler-lax", "min")) => {
                if !kinds.has(Kinds::SAMPLER_LAX) {
                    return Err("sampler-lax=min is for a `sampler-lax` role".into());
                }
                spec.lax_min = true;
            }
            Some(("consts-on", v)) => {
                if !kinds.has(Kinds::TYPED_CONSTS) {
                    return Err("consts-on= is for a `typed-consts` role".into());
                }
                spec.consts_on = leak_vec(parse_sm_ranges(v)?);
            }
            Some(("space", v)) => {
                if !kinds.has(Kinds::ADDR) && !kinds.has(Kinds::VAR) {
                    return Err("space= is for an `addr` or `var` role".into());
                }
                let mut spaces = Vec::new();
                for s in v.split('|') {
                    spaces.push(if s == "generic" {
                        SpaceRef::Generic
                    } else if let Some(&g) = groups.get(s) {
                        SpaceRef::Group(g)
                    } else if let Some(sp) = ptxkit::isa::vocab::StateSpace::from_spelling(s) {
                        SpaceRef::Fixed(sp)
                    } else {
                        return Err(format!(
                            "`{s}` is neither a group of this section, a state space nor `generic`"
                        ));
                    });
                }
                spec.spaces = leak_vec(spaces);
            }
            _ => return Err(format!("unexpected `{p}`")),
        }
    }
    Ok((names, spec))
}

/// `sm_80..sm_89|sm_120..`: inclusive ranges of target numbers (`sm_89`
/// alone is `sm_89..sm_89`; an open end is unbounded); suffixes are not
/// written.
fn parse_sm_ranges(v: &str) -> Result<Vec<(u32, u32)>, String> {
    let num = |t: &str| -> Result<u32, String> {
        t.strip_prefix("sm_")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("bad target `{t}` in `{v}` (plain sm_NN)"))
    };
    v.split('|')
        .map(|item| match item.split_once("..") {
            Some((lo, "")) => Ok((num(lo)?, u32::MAX)),
            Some((lo, hi)) => Ok((num(lo)?, num(hi)?)),
            None => num(item).map(|n| (n, n)),
        })
        .collect()
}

fn strip_hash_comment(line: &str) -> &str {
    match line.find('#') {
        Some(i) => line.get(..i).unwrap_or(line),
        None => line,
    }
}

/// Split the first complete statement off `buf`: up to a `;` at bracket depth
/// 0, plus a following `[key=value …]` on the same line.
fn split_statement(buf: &str) -> Option<(String, String)> {
    let bytes = buf.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    let mut in_comment = false;
    while let Some(&c) = bytes.get(i) {
        if in_comment {
            if c == b'\n' {
                in_comment = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => depth -= 1,
            b';' if depth <= 0 => {
                let mut end = i + 1;
                let rest_line_end = buf
                    .get(end..)
                    .and_then(|r| r.find('\n'))
                    .map(|n| end + n)
                    .unwrap_or(buf.len());
                let tail = buf.get(end..rest_line_end).unwrap_or("");
                let t = tail.trim_start();
                if t.starts_with('[') {
                    if let Some(close) = t.find(']') {
                        end = rest_line_end - t.len() + close + 1;
                    }
                }
                let stmt = buf.get(..end).unwrap_or("").to_string();
                let rest = buf.get(end..).unwrap_or("").to_string();
                return Some((stmt, rest));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[derive(Clone, Debug)]
struct Tok {
    kind: TokenKind,
    text: String,
    /// Whether trivia separates this token from the previous one.
    spaced: bool,
}

/// Lex a statement with the PTX lexer, joining `cache-policy`-style role
/// names (identifiers glued by `-`) into one identifier.
fn lex_stmt(s: &str) -> Vec<Tok> {
    let src = s.as_bytes();
    let mut lx = Lexer::new(src);
    let mut out: Vec<Tok> = Vec::new();
    let mut spaced = true;
    loop {
        let t: Token = lx.next_token();
        match t.kind {
            TokenKind::Eof => break,
            k if k.is_trivia() => spaced = true,
            _ => {
                let text = t.span.text(src).into_owned();
                let glue = !spaced
                    && out.len() >= 2
                    && matches!(t.kind, TokenKind::Ident | TokenKind::Int)
                    && out
                        .last()
                        .is_some_and(|m| m.kind == TokenKind::Minus && !m.spaced)
                    && out
                        .get(out.len() - 2)
                        .is_some_and(|p| p.kind == TokenKind::Ident);
                if glue {
                    out.pop();
                    if let Some(prev) = out.last_mut() {
                        prev.text.push('-');
                        prev.text.push_str(&text);
                    }
                } else {
                    out.push(Tok {
                        kind: t.kind,
                        text,
                        spaced,
                    });
                }
                spaced = false;
            }
        }
    }
    out
}

struct FormParser<'a> {
    toks: &'a [Tok],
    pos: usize,
    groups: &'a FxHashMap<String, GroupId>,
    /// The section's role descriptions by role name.
    roles: &'a FxHashMap<String, RoleId>,
    b: &'a mut Builder,
}

type FormParts = (Vec<Slot>, Vec<OperandTpl>, Requirement);

impl<'a> FormParser<'a> {
    fn new(
        toks: &'a [Tok],
        groups: &'a FxHashMap<String, GroupId>,
        roles: &'a FxHashMap<String, RoleId>,
        b: &'a mut Builder,
    ) -> Self {
        FormParser {
            toks,
            pos: 1,
            groups,
            roles,
            b,
        }
    }

    fn spec(&self, role: &str) -> RoleId {
        self.roles.get(role).copied().unwrap_or(RoleId::NONE)
    }

    fn peek(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n)
    }

    fn kind(&self, n: usize) -> Option<TokenKind> {
        self.peek(n).map(|t| t.kind)
    }

    fn slot_kind(&mut self, word: &str) -> SlotKind {
        match self.groups.get(word) {
            Some(&g) => SlotKind::Group(g),
            None => SlotKind::Lit(self.b.intern_mod(word)),
        }
    }

    fn expect(&mut self, k: TokenKind) -> Result<(), String> {
        if self.kind(0) == Some(k) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!(
                "expected {} found {}",
                k.describe(),
                self.peek(0).map(|t| t.text.as_str()).unwrap_or("end")
            ))
        }
    }

    fn form(mut self) -> Result<FormParts, String> {
        let mut slots = Vec::new();
        // Modifiers: `.x` or `{.x.y}` sequences, until the operands begin.
        loop {
            match (self.kind(0), self.kind(1)) {
                (Some(TokenKind::DotWord), _) => {
                    let w = self.peek(0).map(|t| t.text.clone()).unwrap_or_default();
                    self.pos += 1;
                    let kind = self.slot_kind(&w);
                    slots.push(Slot {
                        kind,
                        optional: false,
                    });
                }
                (Some(TokenKind::LBrace), Some(TokenKind::DotWord)) => {
                    self.pos += 1;
                    while self.kind(0) == Some(TokenKind::DotWord) {
                        let w = self.peek(0).map(|t| t.text.clone()).unwrap_or_default();
                        self.pos += 1;
                        let kind = self.slot_kind(&w);
                        slots.push(Slot {
                            kind,
                            optional: true,
                        });
                    }
                    self.expect(TokenKind::RBrace)?;
                }
                _ => break,
            }
        }
        let operands = self.operand_list(&[TokenKind::Semi])?;
        let mut req = Requirement::default();
        if self.is_attr_start() {
            self.attrs(&mut req)?;
            if self.kind(0) == Some(TokenKind::Semi) {
                self.pos += 1;
            }
        } else {
            self.expect(TokenKind::Semi)?;
            if self.kind(0) == Some(TokenKind::LBracket) {
                self.attrs(&mut req)?;
            }
        }
        if self.pos < self.toks.len() {
            return Err(format!(
                "unexpected `{}` after form",
                self.peek(0).map(|t| t.text.as_str()).unwrap_or("")
            ));
        }
        Ok((slots, operands, req))
    }

    /// `[ptx=8.6 sm=sm_100]`
    fn attrs(&mut self, req: &mut Requirement) -> Result<(), String> {
        self.expect(TokenKind::LBracket)?;
        while self.kind(0) == Some(TokenKind::Ident) {
            let k = self.peek(0).map(|t| t.text.clone()).unwrap_or_default();
            self.pos += 1;
            self.expect(TokenKind::Eq)?;
            let mut v = String::new();
            while let Some(t) = self.peek(0) {
                if t.kind == TokenKind::RBracket || (t.spaced && !v.is_empty()) {
                    break;
                }
                v.push_str(&t.text);
                self.pos += 1;
            }
            set_req(req, &k, &v)?;
        }
        self.expect(TokenKind::RBracket)
    }

    /// Operands up to (not including) one of `stops` at depth 0.
    fn operand_list(&mut self, stops: &[TokenKind]) -> Result<Vec<OperandTpl>, String> {
        let mut out = Vec::new();
        loop {
            match self.kind(0) {
                None => return Ok(out),
                Some(k) if stops.contains(&k) => return Ok(out),
                Some(TokenKind::LBracket) if self.is_attr_start() => return Ok(out),
                _ => {}
            }
            match (self.kind(0), self.kind(1)) {
                (Some(TokenKind::Comma), _) => self.pos += 1,
                // `{, x}` or `{, x if .mod}`: an optional trailing operand.
                (Some(TokenKind::LBrace), Some(TokenKind::Comma)) => {
                    self.pos += 2;
                    let mut op = self.operand()?;
                    op.optional = true;
                    if self.kind(0) == Some(TokenKind::Ident)
                        && self.peek(0).is_some_and(|t| t.text == "if")
                    {
                        self.pos += 1;
                        let w = self
                            .peek(0)
                            .filter(|t| t.kind == TokenKind::DotWord)
                            .map(|t| t.text.clone())
                            .ok_or("expected a modifier after `if`")?;
                        self.pos += 1;
                        op.when = Some(self.slot_kind(&w));
                    }
                    self.expect(TokenKind::RBrace)?;
                    out.push(op);
                }
                // `{b,}`: an optional operand followed by a comma (inside brackets).
                (Some(TokenKind::LBrace), Some(TokenKind::Ident))
                    if self.kind(2) == Some(TokenKind::Comma)
                        && self.kind(3) == Some(TokenKind::RBrace) =>
                {
                    self.pos += 1;
                    let mut op = self.operand()?;
                    op.optional = true;
                    self.expect(TokenKind::Comma)?;
                    self.expect(TokenKind::RBrace)?;
                    out.push(op);
                }
                _ => {
                    let op = self.operand()?;
                    out.push(op);
                    match self.kind(0) {
                        Some(TokenKind::Comma) => self.pos += 1,
                        Some(TokenKind::LBrace) if self.kind(1) == Some(TokenKind::Comma) => {}
                        Some(k) if stops.contains(&k) => {}
                        Some(TokenKind::LBracket) if self.is_attr_start() => {}
                        None => {}
                        Some(_) => {
                            return Err(format!(
                                "unexpected `{}` in operands",
                                self.peek(0).map(|t| t.text.as_str()).unwrap_or("")
                            ))
                        }
                    }
                }
            }
        }
    }

    fn is_attr_start(&self) -> bool {
        self.kind(0) == Some(TokenKind::LBracket)
            && self.peek(1).is_some_and(|t| {
                t.kind == TokenKind::Ident
                    && matches!(
                        t.text.as_str(),
                        "ptx" | "sm" | "until_ptx" | "until_sm" | "until_opt" | "opt"
                    )
            })
            && self.kind(2) == Some(TokenKind::Eq)
    }

    fn operand(&mut self) -> Result<OperandTpl, String> {
        let mut neg = false;
        let mut not = false;
        // Prefixes: `{-}`, `{!}`, `-`, `!`.
        loop {
            match (self.kind(0), self.kind(1), self.kind(2)) {
                (Some(TokenKind::LBrace), Some(TokenKind::Minus), Some(TokenKind::RBrace)) => {
                    neg = true;
                    self.pos += 3;
                }
                (Some(TokenKind::LBrace), Some(TokenKind::Bang), Some(TokenKind::RBrace)) => {
                    not = true;
                    self.pos += 3;
                }
                (Some(TokenKind::Minus), _, _) => {
                    neg = true;
                    self.pos += 1;
                }
                (Some(TokenKind::Bang), _, _) => {
                    not = true;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        let t = self.peek(0).ok_or("expected an operand")?;
        let (role, shape) = match t.kind {
            TokenKind::Ident => {
                self.pos += 1;
                let role = leak(&t.text);
                // `d|p`, `d{|p}` or `d[|p]`.
                match (self.kind(0), self.kind(1)) {
                    (Some(TokenKind::Pipe), Some(TokenKind::Ident)) => {
                        let second = self.peek(1).map(|t| leak(&t.text)).unwrap_or_default();
                        self.pos += 2;
                        (
                            role,
                            Shape::Pair {
                                second,
                                optional: false,
                                second_spec: self.spec(second),
                            },
                        )
                    }
                    (Some(TokenKind::LBrace | TokenKind::LBracket), Some(TokenKind::Pipe)) => {
                        let second = self
                            .peek(2)
                            .filter(|t| t.kind == TokenKind::Ident)
                            .map(|t| leak(&t.text))
                            .ok_or("expected a name after `|`")?;
                        self.pos += 4;
                        (
                            role,
                            Shape::Pair {
                                second,
                                optional: true,
                                second_spec: self.spec(second),
                            },
                        )
                    }
                    _ => (role, Shape::Value),
                }
            }
            TokenKind::Int => {
                self.pos += 1;
                (leak(&t.text), Shape::Literal(leak(&t.text)))
            }
            TokenKind::LBracket => {
                self.pos += 1;
                let inner = self.operand_list(&[TokenKind::RBracket])?;
                self.expect(TokenKind::RBracket)?;
                let role = inner.first().map(|o| o.role).unwrap_or_default();
                (role, Shape::Bracket(leak_vec(inner)))
            }
            TokenKind::LBrace => {
                self.pos += 1;
                let inner = self.operand_list(&[TokenKind::RBrace])?;
                self.expect(TokenKind::RBrace)?;
                let role = inner.first().map(|o| o.role).unwrap_or_default();
                (role, Shape::Vector(leak_vec(inner)))
            }
            TokenKind::LParen => {
                self.pos += 1;
                let mut depth = 1;
                let mut role = String::new();
                while let Some(t) = self.peek(0) {
                    self.pos += 1;
                    match t.kind {
                        TokenKind::LParen => depth += 1,
                        TokenKind::RParen => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ if role.is_empty() && t.kind == TokenKind::Ident => role = t.text.clone(),
                        _ => {}
                    }
                }
                (leak(&role), Shape::List)
            }
            _ => return Err(format!("unexpected `{}` in operands", t.text)),
        };
        // Suffixes: `{.asel}` (optional) or `.x` (required).
        let mut suffixes = Vec::new();
        loop {
            match (self.kind(0), self.kind(1)) {
                (Some(TokenKind::DotWord), _) => {
                    let w = self.peek(0).map(|t| t.text.clone()).unwrap_or_default();
                    self.pos += 1;
                    suffixes.push(self.slot_kind(&w));
                }
                (Some(TokenKind::LBrace), Some(TokenKind::DotWord)) => {
                    self.pos += 1;
                    while self.kind(0) == Some(TokenKind::DotWord) {
                        let w = self.peek(0).map(|t| t.text.clone()).unwrap_or_default();
                        self.pos += 1;
                        suffixes.push(self.slot_kind(&w));
                    }
                    self.expect(TokenKind::RBrace)?;
                }
                _ => break,
            }
        }
        Ok(OperandTpl {
            role,
            shape,
            optional: false,
            when: None,
            neg,
            not,
            suffixes: leak_vec(suffixes),
            spec: self.spec(role),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pred_on_ranges() {
        assert_eq!(
            parse_sm_ranges("sm_89|sm_120.."),
            Ok(vec![(89, 89), (120, u32::MAX)])
        );
        assert_eq!(parse_sm_ranges("sm_10..sm_89"), Ok(vec![(10, 89)]));
        assert!(parse_sm_ranges("sm_90a").is_err());
        let spec = RoleSpec {
            role: "a",
            dir: Dir::In,
            kinds: Kinds::default().with(Kinds::REG).with(Kinds::PRED),
            types: &[],
            arity: Arity::Scalar,
            wider: false,
            wider_max: 0,
            range: None,
            multiple: 0,
            at_most: None,
            pred_on: &[(89, 89), (120, u32::MAX)],
            consts_on: &[],
            mov_on: &[],
            typed_on: &[],
            untyped_on: &[],
            lax_min: false,
            spaces: &[],
        };
        assert!(spec.takes_pred_on(Some(89)));
        assert!(!spec.takes_pred_on(Some(90)));
        assert!(spec.takes_pred_on(Some(121)));
        assert!(spec.takes_pred_on(None));
    }

    #[test]
    fn at_most_names_another_role() {
        let groups = FxHashMap::default();
        let (_, spec) =
            parse_role("n in reg,imm .u32 range=0..16 at-most=size", &groups).expect("parses");
        assert_eq!(spec.at_most, Some("size"));
        assert!(parse_role("n in reg .u32 at-most=size", &groups).is_err());
        assert!(parse_role("n in imm .u32 at-most=n", &groups).is_err());
        assert!(parse_role("n in imm .u32 at-most=", &groups).is_err());
    }

    #[test]
    fn until_attributes() {
        let mut req = Requirement::default();
        assert!(set_req(&mut req, "until_ptx", "6.4").is_ok());
        assert!(set_req(&mut req, "until_sm", "sm_70").is_ok());
        assert!(set_req(&mut req, "until_sm", "sm_70|sm_80").is_err());
        assert!(req.has_until() && !req.is_empty());
    }
}
