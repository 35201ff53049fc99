//! How each directive renders: one [`Render`] impl per directive type (the core's in
//! `render::tables` and `render::figures`, a pack's in its `render/`), and [`render`], the
//! dispatch expanded from the one list of directives (`model::directive::directive_list!`).

use super::figures::Drawn;
use super::scope::Scope;
use super::table::Table;
use crate::model::directive::Directive;

/// What a directive renders to: tables through `table.html`, or figures drawn as SVG
/// through `figure.html`.
pub enum Shown {
    Tables(Vec<Table>),
    Figures(Vec<Drawn>),
}

/// How one directive type renders, for the scope's view.
pub trait Render {
    fn render(&self, s: &Scope) -> Shown;
}

macro_rules! dispatch {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// Renders a parsed directive.
        pub fn render(d: &Directive, s: &Scope) -> Shown {
            match d {
                $(Directive::$variant(x) => Render::render(x, s),)*
                Directive::Pack(p) => super::pack::directive(p.value.as_ref(), s),
            }
        }
    };
}
crate::model::directive::directive_list!(dispatch);
